#include "diff.h"
struct Hdr {
  unsigned type : 4;
  unsigned len : 12;
  unsigned flag : 1;
  signed delta : 7;
  unsigned rest : 8;
};
int main() {
  Hdr h{};
  h.type = opaque(0xB);
  h.len = opaque(4000);
  h.flag = 1;
  h.delta = opaque(-37);
  h.rest = 200;
  printf("%u %u %u %d %u\n", h.type, h.len, h.flag, h.delta, h.rest);
  Hdr arr[8];
  int s = 0;
  for (int i = 0; i < 8; ++i) {
    arr[i].type = static_cast<unsigned>(i * 3);
    arr[i].len = static_cast<unsigned>(i * 1000);
    arr[i].delta = -i * 9;
    arr[i].flag = i & 1;
    arr[i].rest = static_cast<unsigned>(255 - i);
  }
  for (int i = 0; i < 8; ++i) s += static_cast<int>(arr[i].type + arr[i].len + arr[i].flag + arr[i].rest) + arr[i].delta;
  printf("s=%d\n", s);
  h.len += 100;  // wraps in 12 bits
  h.delta = static_cast<signed>(h.delta - 30);
  printf("wrap=%u %d\n", h.len, h.delta);
  return 0;
}
