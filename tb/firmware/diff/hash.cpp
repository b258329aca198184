#include "diff.h"
static uint32_t fnv1a(const char* s) { uint32_t h = 2166136261u; while (*s) { h ^= static_cast<unsigned char>(*s++); h *= 16777619u; } return h; }
static uint64_t fnv1a64(const char* s) { uint64_t h = 14695981039346656037ULL; while (*s) { h ^= static_cast<unsigned char>(*s++); h *= 1099511628211ULL; } return h; }
static uint32_t murmur_mix(uint32_t h) { h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16; return h; }
static uint32_t djb2(const char* s) { uint32_t h = 5381; while (*s) h = ((h << 5) + h) + static_cast<unsigned char>(*s++); return h; }
int main() {
  const char* words[] = {"", "a", "lanai", "myrinet", "The quick brown fox jumps over the lazy dog"};
  for (const char* w : words) {
    printf("%08x %08x %08x ", fnv1a(w), djb2(w), murmur_mix(fnv1a(w)));
    put_hex64("f64", fnv1a64(w));
  }
  uint32_t x = opaque(1u);
  for (int i = 0; i < 1000; ++i) x = murmur_mix(x + static_cast<uint32_t>(i));
  printf("chain=%08x\n", x);
  return 0;
}
