<?php
class Item
{
    public $sku;
    public $price;
    public $qty;
    public function __construct($sku, $price, $qty)
    {
        $this->sku = $sku;
        $this->price = $price;
        $this->qty = $qty;
    }
}
class Order
{
    public $id = 42;
    public $items = [];
    public $customer = ['name' => 'Ada', 'password' => 'hunter2'];
}
function make_order($source)
{
    $order = new Order();
    $order->items[] = new Item('A-1', 2.5, 1);
    $order->items[] = new Item('B-2', 10, 3);
    $order->items[] = new Item('C-3', 1, 7);
    return $order;
}
function order_total($order)
{
    $sum = 0;
    foreach ($order->items as $item) {
        $sum += $item->price * $item->qty;
    }
    return $sum;
}
class Cart
{
    public $lines = [];
    public function add($sku, $price, $qty)
    {
        $this->lines[] = [$sku, $price * $qty];
        return count($this->lines);
    }
}
function total($cart)
{
    return array_sum(array_column($cart->lines, 1));
}
