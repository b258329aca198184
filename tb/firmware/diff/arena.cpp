#include "diff.h"
// A bump arena with alignment, placement new, and reset; plus heap new/delete churn.
class Arena {
 public:
  Arena(unsigned char* mem, size_t size) : base_(mem), size_(size), used_(0) {}
  void* alloc(size_t n, size_t align) {
    size_t p = (used_ + align - 1) & ~(align - 1);
    if (p + n > size_) return nullptr;
    used_ = p + n;
    return base_ + p;
  }
  void reset() { used_ = 0; }
  size_t used() const { return used_; }
 private:
  unsigned char* base_;
  size_t size_, used_;
};
struct Node { int v; Node* next; Node(int x, Node* n) : v(x), next(n) {} };
alignas(8) static unsigned char pool[2048];
int main() {
  Arena ar(pool, sizeof pool);
  Node* head = nullptr;
  for (int i = 0; i < 40; ++i) head = new (ar.alloc(sizeof(Node), alignof(Node))) Node(opaque(i) * i, head);
  int s = 0;
  for (Node* n = head; n; n = n->next) s += n->v;
  void* big = ar.alloc(4096, 8);
  printf("sum=%d nodes=%u big=%d\n", s, static_cast<unsigned>(ar.used() / sizeof(Node)), big == nullptr);
  ar.reset();
  char* c = static_cast<char*>(ar.alloc(3, 1));
  int* d = static_cast<int*>(ar.alloc(sizeof(int), 4));
  printf("after reset used=%u aligned=%d\n", static_cast<unsigned>(ar.used()), (reinterpret_cast<uintptr_t>(d) & 3) == 0);
  (void)c;
  // heap churn
  int* blocks[32];
  unsigned h = 0;
  for (int round = 0; round < 5; ++round) {
    for (int i = 0; i < 32; ++i) {
      blocks[i] = new int[(i * 7 + round) % 13 + 1];
      blocks[i][0] = i + round;
    }
    for (int i = 0; i < 32; i += 2) { h = h * 31u + static_cast<unsigned>(blocks[i][0]); delete[] blocks[i]; }
    for (int i = 1; i < 32; i += 2) { h = h * 31u + static_cast<unsigned>(blocks[i][0]); delete[] blocks[i]; }
  }
  printf("heap h=%u\n", h);
  return 0;
}
