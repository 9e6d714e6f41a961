/// One line of a cart.
pub struct Item {
    pub name: String,
    pub price: f64,
    pub quantity: u32,
}

impl Item {
    pub fn total(&self) -> f64 {
        self.price * self.quantity as f64
    }
}

pub trait Priced {
    fn price(&self) -> f64;
}

pub fn cheapest(items: &[Item]) -> Option<&Item> {
    items.iter().min_by(|a, b| a.price.partial_cmp(&b.price).unwrap())
}
