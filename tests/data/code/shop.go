package shop

import "fmt"

// Item is one line of a cart.
type Item struct {
	Name     string
	Price    float64
	Quantity int
}

// Cart holds items.
type Cart struct {
	Owner string
	Items []Item
}

// Add puts an item in the cart.
func (c *Cart) Add(item Item) {
	c.Items = append(c.Items, item)
}

// Subtotal sums the items.
func (c *Cart) Subtotal() float64 {
	total := 0.0
	for _, item := range c.Items {
		total += item.Price * float64(item.Quantity)
	}
	return total
}

func Describe(c Cart) string {
	return fmt.Sprintf("%s has %d items", c.Owner, len(c.Items))
}
