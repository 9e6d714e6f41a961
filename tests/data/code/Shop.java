package shop;

import java.util.ArrayList;
import java.util.List;

public class Shop {
    private final List<String> items = new ArrayList<>();

    public Shop() {
    }

    public void add(String item) {
        items.add(item);
    }

    public int size() {
        return items.size();
    }

    interface Listener {
        void changed(String item);
    }
}
