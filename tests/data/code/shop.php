<?php
namespace Shop\Cart;

interface Priced
{
    public function price(): float;
}

/** One line of a cart. */
class Item implements Priced
{
    public function __construct(private string $name, private float $price) {}

    public function price(): float
    {
        return $this->price;
    }
}

trait Discounts
{
    public function discount(float $rate): float
    {
        return $this->subtotal() * $rate;
    }
}

function cheapest(array $items): ?Item
{
    usort($items, fn($a, $b) => $a->price() <=> $b->price());
    return $items[0] ?? null;
}
