// Heap for operator new/delete and malloc/free: first-fit free list with address-ordered
// coalescing over the SRAM between the end of .bss (__heap_start) and the stack
// (__stack_limit). Allocation failure is fatal (no exceptions in firmware): abort().
#include "fw/fw.h"

extern "C" char __heap_start[], __stack_limit[];

namespace {

struct Block {
  size_t size;  // bytes including this header; multiple of 8
  Block* next;  // free blocks only
};
constexpr size_t kHeader = 8;
constexpr size_t kMin = 16;

Block* g_free = nullptr;
bool g_ready = false;

void init() {
  const uintptr_t lo = (reinterpret_cast<uintptr_t>(__heap_start) + 7u) & ~uintptr_t{7};
  const uintptr_t hi = reinterpret_cast<uintptr_t>(__stack_limit) & ~uintptr_t{7};
  g_ready = true;
  if (hi <= lo + kMin) return;
  g_free = reinterpret_cast<Block*>(lo);
  g_free->size = hi - lo;
  g_free->next = nullptr;
}

}  // namespace

extern "C" void* malloc(size_t n) {
  if (!g_ready) init();
  size_t need = (n + kHeader + 7u) & ~size_t{7};
  if (need < kMin) need = kMin;
  Block** link = &g_free;
  for (Block* b = g_free; b; link = &b->next, b = b->next) {
    if (b->size < need) continue;
    if (b->size - need >= kMin) {
      Block* rest = reinterpret_cast<Block*>(reinterpret_cast<char*>(b) + need);
      rest->size = b->size - need;
      rest->next = b->next;
      *link = rest;
      b->size = need;
    } else {
      *link = b->next;
    }
    return reinterpret_cast<char*>(b) + kHeader;
  }
  return nullptr;
}

extern "C" void free(void* p) {
  if (!p) return;
  Block* b = reinterpret_cast<Block*>(static_cast<char*>(p) - kHeader);
  Block* prev = nullptr;
  Block* cur = g_free;
  while (cur && cur < b) {
    prev = cur;
    cur = cur->next;
  }
  b->next = cur;
  if (prev) prev->next = b;
  else g_free = b;
  if (cur && reinterpret_cast<char*>(b) + b->size == reinterpret_cast<char*>(cur)) {
    b->size += cur->size;
    b->next = cur->next;
  }
  if (prev && reinterpret_cast<char*>(prev) + prev->size == reinterpret_cast<char*>(b)) {
    prev->size += b->size;
    prev->next = b->next;
  }
}

size_t fw::heap_free() {
  if (!g_ready) init();
  size_t n = 0;
  for (Block* b = g_free; b; b = b->next) n += b->size;
  return n;
}

namespace {
void* must_alloc(size_t n) {
  void* p = malloc(n);
  if (!p) {
    puts("operator new: out of heap memory");
    abort();
  }
  return p;
}
}  // namespace

void* operator new(size_t n) { return must_alloc(n); }
void* operator new[](size_t n) { return must_alloc(n); }
void operator delete(void* p) noexcept { free(p); }
void operator delete[](void* p) noexcept { free(p); }
void operator delete(void* p, size_t) noexcept { free(p); }
void operator delete[](void* p, size_t) noexcept { free(p); }
