<?php
// A method the object inherits, and a binary string (issue 26).
class Base
{
    public $items = [2, 3];

    public function doubled()
    {
        $sum = array_sum($this->items);
        return $sum * 2;
    }
}

class Child extends Base
{
}

$c = new Child();
$t = $c->doubled();
$bin = "ab\xff\x00c";
$i = 1;
echo "t=$t " . strlen($bin) . "\n";
