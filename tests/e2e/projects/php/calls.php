<?php
require __DIR__ . '/src/lib.php';
$cart = new Cart();
$n = $cart->add('A-1', 2.5, 2);
$cart->add('B-2', 10, 1);
echo "total=" . total($cart) . "\n";
