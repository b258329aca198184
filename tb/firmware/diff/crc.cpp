#include "diff.h"
static uint32_t table[256];
static void init_table() {
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
}
static uint32_t crc32(const unsigned char* p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  while (n--) c = table[(c ^ *p++) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}
static uint32_t crc32_bitwise(const unsigned char* p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}
static uint16_t crc16_ccitt(const unsigned char* p, size_t n) {
  uint16_t c = 0xFFFF;
  while (n--) {
    c ^= static_cast<uint16_t>(*p++ << 8);
    for (int k = 0; k < 8; ++k) c = static_cast<uint16_t>((c & 0x8000) ? (c << 1) ^ 0x1021 : c << 1);
  }
  return c;
}
static uint8_t crc8(const unsigned char* p, size_t n) {
  uint8_t c = 0;
  while (n--) {
    c ^= *p++;
    for (int k = 0; k < 8; ++k) c = static_cast<uint8_t>((c & 0x80) ? (c << 1) ^ 0x07 : c << 1);
  }
  return c;
}
int main() {
  init_table();
  const char* msg = "123456789";
  const unsigned char* m = reinterpret_cast<const unsigned char*>(msg);
  printf("crc32=%08x bitwise=%08x crc16=%04x crc8=%02x\n", crc32(m, 9), crc32_bitwise(m, 9), crc16_ccitt(m, 9), crc8(m, 9));
  static unsigned char buf[4096];
  for (int i = 0; i < 4096; ++i) buf[i] = static_cast<unsigned char>(i * 7 + (i >> 5));
  printf("big=%08x %08x\n", crc32(buf, 4096), crc32_bitwise(buf, 4096));
  return 0;
}
