#include "fw/fw.h"
#include "two.h"

int main() {
  const int r = twice(5) + from_b(4);
  printf("two %d\n", r);
  return r == 18 ? 0 : 1;
}
