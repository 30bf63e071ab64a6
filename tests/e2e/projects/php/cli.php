<?php
require __DIR__ . '/src/lib.php';
$order = make_order('cli');
$total = order_total($order);
echo "total=$total\n";
