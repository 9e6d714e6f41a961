#include <stdio.h>

struct item {
    const char *name;
    double price;
    int quantity;
};

double item_total(const struct item *it) {
    return it->price * it->quantity;
}

int main(void) {
    struct item it = {"tea", 2.5, 4};
    printf("%f\n", item_total(&it));
    return 0;
}
