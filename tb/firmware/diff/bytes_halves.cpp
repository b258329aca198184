#include "diff.h"
// Byte and half arrays: sign/zero extension through indexed (RRM) and constant-offset (SPLS) accesses.
static signed char sc[16];
static unsigned char uc[16];
static short ss[16];
static unsigned short us[16];
int main() {
  for (int i = 0; i < 16; ++i) {
    sc[i] = static_cast<signed char>(opaque(0xAB + i * 17));
    uc[i] = static_cast<unsigned char>(opaque(0xAB + i * 17));
    ss[i] = static_cast<short>(opaque(0x1FEDC + i * 4099));
    us[i] = static_cast<unsigned short>(opaque(0x1FEDC + i * 4099));
  }
  int s = 0;
  for (int i = 0; i < 16; ++i) {
    const int k = opaque(i);
    printf("%d %d %d %d\n", sc[k], uc[k], ss[k], us[k]);
    s += sc[k] * 3 + uc[k] - ss[k] + us[k];
  }
  printf("fixed: %d %d %d %d %d %d\n", sc[3], uc[5], ss[7], us[9], sc[15], us[15]);
  printf("conv: %d %d %d %d\n", static_cast<signed char>(opaque(0xAB)), static_cast<unsigned char>(opaque(0xAB)),
         static_cast<int16_t>(opaque(0x1FEDC)), static_cast<uint16_t>(opaque(0x1FEDC)));
  unsigned char buf[32];
  for (int i = 0; i < 32; ++i) buf[i] = static_cast<unsigned char>(i * 37 + 11);
  unsigned short* hp = reinterpret_cast<unsigned short*>(buf);
  unsigned hs = 0;
  for (int i = 0; i < 16; ++i) hs += static_cast<unsigned>(hp[i] & 0xFF) + static_cast<unsigned>(hp[i] >> 8);  // byte-order independent
  printf("sum=%d hs=%u\n", s, hs);
  char* p = reinterpret_cast<char*>(buf);
  int post = 0;
  for (int i = 0; i < 32; ++i) post += *p++;  // post-increment byte loads
  printf("post=%d\n", post);
  return 0;
}
