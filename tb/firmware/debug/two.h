// Shared inline code: each object gets a COMDAT copy (and its DWARF); the linker keeps one.
#pragma once
template <typename T>
__attribute__((noinline)) T twice(T v) {
  return v + v;
}
int from_b(int x);
