<?php
// Floats that PHP's `precision` (14 digits) prints rounded (issue 26).
class Money
{
    private $amount;

    public function __construct($amount)
    {
        $this->amount = $amount;
    }

    public function toFloat()
    {
        return $this->amount;
    }
}

$subtotal = new Money(50 - 1e-14);
$sum = 0.1 + 0.2;
$tenth = 0.1;
$prices = [1.5, $sum];
$big = $subtotal->toFloat() >= 50.0;
echo "sum=" . $sum . " big=" . ($big ? "yes" : "no") . "\n";
echo "precision=" . ini_get('precision') . " " . (0.1 + 0.2) . "\n";
