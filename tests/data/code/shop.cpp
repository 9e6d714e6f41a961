#include <string>
#include <vector>

namespace shop {

class Cart {
public:
    void add(const std::string& item) { items_.push_back(item); }
    std::size_t size() const { return items_.size(); }
private:
    std::vector<std::string> items_;
};

}  // namespace shop

int main() {
    shop::Cart cart;
    cart.add("tea");
    return static_cast<int>(cart.size());
}
