#include "diff.h"
static const char kTab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static int enc(const unsigned char* in, int n, char* out) {
  int o = 0;
  for (int i = 0; i < n; i += 3) {
    unsigned v = static_cast<unsigned>(in[i]) << 16;
    if (i + 1 < n) v |= static_cast<unsigned>(in[i + 1]) << 8;
    if (i + 2 < n) v |= in[i + 2];
    out[o++] = kTab[(v >> 18) & 63]; out[o++] = kTab[(v >> 12) & 63];
    out[o++] = i + 1 < n ? kTab[(v >> 6) & 63] : '='; out[o++] = i + 2 < n ? kTab[v & 63] : '=';
  }
  out[o] = 0;
  return o;
}
static int dec(const char* in, unsigned char* out) {
  int o = 0; unsigned v = 0; int bits = 0;
  for (; *in && *in != '='; ++in) {
    const char* p = kTab; while (*p && *p != *in) ++p;
    v = (v << 6) | static_cast<unsigned>(p - kTab); bits += 6;
    if (bits >= 8) { bits -= 8; out[o++] = static_cast<unsigned char>(v >> bits); }
  }
  return o;
}
int main() {
  const char* msgs[] = {"", "f", "fo", "foo", "foobar", "Myrinet LANai firmware!"};
  char buf[64]; unsigned char back[64];
  for (const char* m : msgs) {
    const int n = static_cast<int>(strlen(m));
    enc(reinterpret_cast<const unsigned char*>(m), n, buf);
    const int d = dec(buf, back);
    printf("[%s] -> [%s] roundtrip=%d\n", m, buf, d == n && memcmp(back, m, static_cast<size_t>(n)) == 0);
  }
  return 0;
}
