package shop

/** One line of a cart. */
case class Item(name: String, price: Double, quantity: Int = 1) {
  def total: Double = price * quantity
}

trait Priced {
  def price: Double
}

class Cart {
  private var items = List.empty[Item]

  def add(item: Item): Unit = {
    items = item :: items
  }
}

object Cart {
  def empty: Cart = new Cart
}

def cheapest(items: Seq[Item]): Option[Item] = items.minByOption(_.price)
