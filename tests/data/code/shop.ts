// Carts and prices in TypeScript
export interface Item {
  name: string;
  price: number;
  quantity: number;
}

export class Cart {
  private items: Item[] = [];

  constructor(public owner: string) {}

  add(item: Item): void {
    const existing = this.items.find((i) => i.name === item.name);
    if (existing) {
      existing.quantity += item.quantity;
    } else {
      this.items.push(item);
    }
  }

  subtotal(): number {
    return this.items.reduce((sum, i) => sum + i.price * i.quantity, 0);
  }
}

export const cheapest = (items: Item[]): Item =>
  items.reduce((a, b) => (a.price <= b.price ? a : b));

export enum Currency {
  EUR = "EUR",
  USD = "USD",
}
