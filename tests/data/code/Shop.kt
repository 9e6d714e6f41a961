package shop

/** One line of a cart. */
data class Item(val name: String, val price: Double, val quantity: Int = 1) {
    fun total(): Double = price * quantity
}

interface Priced {
    fun price(): Double
}

enum class Currency { EUR, USD }

class Cart {
    private val items = mutableListOf<Item>()

    fun add(item: Item) {
        items.add(item)
    }

    companion object {
        fun empty(): Cart = Cart()
    }
}

object Registry {
    fun lookup(name: String): Item? = null
}

fun cheapest(items: List<Item>): Item? = items.minByOrNull { it.price }
