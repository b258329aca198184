#include "diff.h"
int main() {
  printf("[%5d] [%-5d] [%05d] [%+d] [% d] [%d]\n", 42, 42, 42, 42, 42, -42);
  printf("[%x] [%X] [%08x] [%#x] [%#o] [%o]\n", 0xbeefu, 0xbeefu, 0xbeefu, 0xbeefu, 8u, 8u);
  printf("[%u] [%10u] [%-10u]\n", 4294967295u, 7u, 7u);
  printf("[%s] [%10s] [%-10s] [%.3s] [%c%c]\n", "str", "right", "left", "truncate", 'o', 'k');
  printf("[%.5d] [%8.3d] [%-8.3d|] [%.0d]\n", 42, 7, 7, 0);
  printf("[%hd] [%hhu] [%ld] [%lu] [%zu]\n", static_cast<short>(opaque(-1234)), static_cast<unsigned char>(opaque(200)), -5L, 5UL, sizeof(int));
  printf("[%*d] [%-*d] [%%]\n", 6, 12, 6, 12);
  printf("[%d] [%d]\n", -2147483647 - 1, 2147483647);
  return 0;
}
