-- A small shop.
local Shop = {}
Shop.Cart = {}

local function total(item)
  return item.price * item.quantity
end

function Shop.Cart.new()
  return setmetatable({ items = {} }, { __index = Shop.Cart })
end

function Shop.Cart:add(item)
  table.insert(self.items, item)
end

function cheapest(items)
  table.sort(items, function(a, b) return a.price < b.price end)
  return items[1]
end

return Shop
