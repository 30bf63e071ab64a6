<?php
// Three lines of 10% off: 20 + 15 + 20 = 55, less 10% = 49.5. It prints a negative total.
function line_total(array $item, $rate)
{
    $net = $item['price'] * $item['qty'];
    $off = $net * $rate;
    return $net - $off; // php_scenario: stop here
}
$items = [
    ['sku' => 'A', 'price' => 10, 'qty' => 2],
    ['sku' => 'B', 'price' => 5, 'qty' => 3],
    ['sku' => 'C', 'price' => 20, 'qty' => 1],
];
$rate = 10; // percent
$sum = 0;
foreach ($items as $item) {
    $sum += line_total($item, $rate);
}
echo "total=$sum\n";
