# A small shop.
module Shop
  # One line of a cart.
  class Item
    attr_reader :name, :price, :quantity

    def initialize(name, price, quantity = 1)
      @name, @price, @quantity = name, price, quantity
    end

    def total
      price * quantity
    end
  end

  class Cart
    def self.empty
      new([])
    end

    def add(item)
      @items << item
    end

    def <=>(other)
      subtotal <=> other.subtotal
    end
  end
end

def cheapest(items)
  items.min_by(&:price)
end
