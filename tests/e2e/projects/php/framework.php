<?php
// Code under test run by a framework that throws and catches its own exceptions (issue 26).
require __DIR__ . '/vendor/acme/runner/Runner.php';

class PriceTest
{
    public function testPrice(): void
    {
        $prices = ['a' => 3];
        if (!isset($prices['b'])) {
            throw new InvalidArgumentException("no price for b");
        }
    }
}

Runner::run('PriceTest', 'testPrice');
