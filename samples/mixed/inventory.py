"""A small shop module: carts, prices and discounts."""

import math
from dataclasses import dataclass, field

TAX_RATE = 0.2


@dataclass
class Item:
    """One line of a cart."""

    name: str
    price: float
    quantity: int = 1

    def total(self) -> float:
        return self.price * self.quantity


class Cart:
    """A shopping cart that knows its items and discounts."""

    currency = "EUR"

    def __init__(self, owner: str):
        self.owner = owner
        self.items: list[Item] = []

    def add(self, item: Item) -> None:
        """Add an item, merging it with an item of the same name."""
        for existing in self.items:
            if existing.name == item.name:
                existing.quantity += item.quantity
                return
        self.items.append(item)

    def subtotal(self) -> float:
        return sum(item.total() for item in self.items)

    def discount(self, code: str) -> float:
        """The discount a code gives: SPRING takes ten percent, BULK five per item
        over ten items, anything else nothing."""
        if code == "SPRING":
            return round(self.subtotal() * 0.1, 2)
        if code == "BULK":
            extra = sum(item.quantity for item in self.items) - 10
            return 5.0 * max(0, extra)
        return 0.0

    def total(self, code: str = "") -> float:
        net = self.subtotal() - self.discount(code)
        return round(net * (1 + TAX_RATE), 2)


def cheapest(items: list[Item]) -> Item:
    return min(items, key=lambda item: item.price)


def round_up(value: float) -> int:
    return math.ceil(value)
