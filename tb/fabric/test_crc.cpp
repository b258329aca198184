// CRC-8 of the packet trailer: the table-driven update equals the bit-serial definition for
// every (crc, byte), and the polynomial 0x07 with initial value 0 gives the catalogued check
// value 0xF4 for "123456789" (CRC-8/SMBUS).
#include <catch2/catch.hpp>
#include <string>

#include "hw/link/flit.hpp"

using namespace sanvp;

TEST_CASE("CRC-8 table equals the bit-serial definition", "[crc]") {
  int mismatches = 0;
  for (int c = 0; c < 256; ++c)
    for (int b = 0; b < 256; ++b)
      if (crc8_update(static_cast<std::uint8_t>(c), static_cast<std::uint8_t>(b)) !=
          crc8_update_bitwise(static_cast<std::uint8_t>(c), static_cast<std::uint8_t>(b)))
        ++mismatches;
  CHECK(mismatches == 0);
}

TEST_CASE("CRC-8 check value", "[crc]") {
  std::uint8_t crc = 0;
  for (char ch : std::string("123456789")) crc = crc8_update(crc, static_cast<std::uint8_t>(ch));
  CHECK(crc == 0xF4);
  // Any single-bit error in a short message changes the CRC.
  const std::string msg = "sanvp";
  std::uint8_t good = 0;
  for (char ch : msg) good = crc8_update(good, static_cast<std::uint8_t>(ch));
  for (std::size_t i = 0; i < msg.size(); ++i)
    for (int bit = 0; bit < 8; ++bit) {
      std::uint8_t bad = 0;
      for (std::size_t j = 0; j < msg.size(); ++j)
        bad = crc8_update(bad, static_cast<std::uint8_t>(msg[j] ^ (j == i ? (1 << bit) : 0)));
      CHECK(bad != good);
    }
}
