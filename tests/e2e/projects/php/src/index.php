<?php
require __DIR__ . '/lib.php';
$uri = $_SERVER['REQUEST_URI'];
$order = make_order($uri);
$total = order_total($order);
header('Content-Type: application/json');
echo json_encode(['uri' => $uri, 'total' => $total]), "\n";
