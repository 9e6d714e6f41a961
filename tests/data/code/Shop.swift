import Foundation

/// One line of a cart.
struct Item {
    let name: String
    let price: Double

    init(name: String, price: Double) {
        self.name = name
        self.price = price
    }
}

protocol Priced {
    func price() -> Double
}

final class Cart {
    private var items: [Item] = []

    func add(_ item: Item) {
        items.append(item)
    }
}

extension Cart {
    var subtotal: Double {
        items.reduce(0) { $0 + $1.price }
    }

    static func ==(lhs: Cart, rhs: Cart) -> Bool {
        lhs.subtotal == rhs.subtotal
    }
}

enum Currency { case eur, usd }

func cheapest(_ items: [Item]) -> Item? {
    items.min { $0.price < $1.price }
}
