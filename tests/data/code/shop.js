export class Cart {
  constructor(owner) {
    this.owner = owner;
    this.items = [];
  }

  add(item) {
    this.items.push(item);
  }
}

export function cheapest(items) {
  return items.reduce((a, b) => (a.price <= b.price ? a : b));
}

const double = (x) => x * 2;
