using System.Collections.Generic;

namespace Shop
{
    public class Cart
    {
        private readonly List<string> items = new List<string>();

        public void Add(string item)
        {
            items.Add(item);
        }

        public int Count => items.Count;
    }
}
