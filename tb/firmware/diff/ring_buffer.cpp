#include "diff.h"
template <typename T, unsigned N> class Ring {
 public:
  bool push(T v) { if (count_ == N) return false; buf_[(head_ + count_) % N] = v; ++count_; return true; }
  bool pop(T* v) { if (!count_) return false; *v = buf_[head_]; head_ = (head_ + 1) % N; --count_; return true; }
  unsigned size() const { return count_; }
 private:
  T buf_[N]; unsigned head_ = 0, count_ = 0;
};
int main() {
  Ring<uint16_t, 13> r;
  unsigned pushed = 0, popped = 0, drop = 0, h = 0;
  for (unsigned i = 0; i < 500; ++i) {
    const unsigned n = (i * 7) % 5;
    for (unsigned k = 0; k < n; ++k) { if (r.push(static_cast<uint16_t>(i * 31 + k))) ++pushed; else ++drop; }
    uint16_t v;
    for (unsigned k = 0; k < (i % 4); ++k) if (r.pop(&v)) { ++popped; h = h * 31u + v; }
  }
  printf("pushed=%u popped=%u drop=%u left=%u h=%u\n", pushed, popped, drop, r.size(), h);
  return 0;
}
