#include "diff.h"
static unsigned char comp[20001];
int main() {
  const int n = opaque(20000);
  int count = 0, last = 0; unsigned sum = 0;
  for (int i = 2; i <= n; ++i) {
    if (comp[i]) continue;
    ++count; last = i; sum += static_cast<unsigned>(i);
    for (int j = i * i; j <= n; j += i) comp[j] = 1;
  }
  printf("primes=%d last=%d sum=%u\n", count, last, sum);
  return 0;
}
