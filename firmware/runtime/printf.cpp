// Console output and a small printf. Output goes byte by byte to the console transmitter
// register after polling its ready bit (the model is always ready; real hardware might not be).
#include "fw/fw.h"

namespace {

using sanvp::nic::map::kConsoleStatus;
using sanvp::nic::map::kConsoleTx;

void console_put(char c) {
  while ((fw::sys_reg(kConsoleStatus) & 1u) == 0) {
  }
  fw::sys_reg(kConsoleTx) = static_cast<unsigned char>(c);
}

struct Sink {
  char* buf;      // null: console
  size_t cap;     // buffer capacity including the terminator
  size_t count;   // characters produced (also beyond cap)
  void put(char c) {
    if (!buf) console_put(c);
    else if (count + 1 < cap) buf[count] = c;
    ++count;
  }
};

void pad(Sink& s, char c, int n) {
  while (n-- > 0) s.put(c);
}

void format(Sink& out, const char* f, va_list ap) {
  while (*f) {
    if (*f != '%') {
      out.put(*f++);
      continue;
    }
    ++f;
    bool left = false, zero = false, plus = false, space = false, alt = false;
    for (;; ++f) {
      if (*f == '-') left = true;
      else if (*f == '0') zero = true;
      else if (*f == '+') plus = true;
      else if (*f == ' ') space = true;
      else if (*f == '#') alt = true;
      else break;
    }
    int width = 0, prec = -1;
    if (*f == '*') {
      width = va_arg(ap, int);
      if (width < 0) left = true, width = -width;
      ++f;
    } else {
      while (*f >= '0' && *f <= '9') width = width * 10 + (*f++ - '0');
    }
    if (*f == '.') {
      ++f;
      prec = 0;
      if (*f == '*') {
        prec = va_arg(ap, int);
        ++f;
      } else {
        while (*f >= '0' && *f <= '9') prec = prec * 10 + (*f++ - '0');
      }
    }
    int hmod = 0;
    while (*f == 'l' || *f == 'h' || *f == 'z' || *f == 't') {
      if (*f == 'h') ++hmod;
      ++f;
    }
    const char conv = *f ? *f++ : '\0';
    char tmp[16];
    int n = 0;
    const char* str = tmp;
    char sign = 0;
    const char* prefix = "";
    switch (conv) {
      case '%': out.put('%'); continue;
      case 'c': tmp[0] = static_cast<char>(va_arg(ap, int)); n = 1; break;
      case 's': {
        str = va_arg(ap, const char*);
        if (!str) str = "(null)";
        while (str[n] && (prec < 0 || n < prec)) ++n;
        break;
      }
      case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'p': {
        uint32_t v = va_arg(ap, uint32_t);
        if (conv == 'd' || conv == 'i') {
          int32_t sv = static_cast<int32_t>(v);
          if (hmod == 1) sv = static_cast<int16_t>(sv);
          if (hmod >= 2) sv = static_cast<int8_t>(sv);
          if (sv < 0) sign = '-', v = 0u - static_cast<uint32_t>(sv);
          else v = static_cast<uint32_t>(sv), sign = plus ? '+' : (space ? ' ' : 0);
        } else {
          if (hmod == 1) v &= 0xFFFFu;
          if (hmod >= 2) v &= 0xFFu;
        }
        const unsigned base = (conv == 'x' || conv == 'X' || conv == 'p') ? 16 : (conv == 'o' ? 8 : 10);
        const char* digits = conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
        char rev[16];
        int k = 0;
        while (v) {
          rev[k++] = digits[v % base];
          v /= base;
        }
        if (prec < 0 && k == 0) rev[k++] = '0';
        while (k < prec) rev[k++] = '0';
        for (int i = 0; i < k; ++i) tmp[i] = rev[k - 1 - i];
        n = k;
        if (conv == 'p' || (alt && (conv == 'x' || conv == 'X') && n && !(n == 1 && tmp[0] == '0')))
          prefix = conv == 'X' ? "0X" : "0x";
        if (alt && conv == 'o' && tmp[0] != '0') prefix = "0";
        if (prec >= 0) zero = false;
        break;
      }
      default:  // unknown conversion: print it verbatim
        out.put('%');
        if (conv) out.put(conv);
        continue;
    }
    int plen = 0;
    while (prefix[plen]) ++plen;
    const int total = n + plen + (sign ? 1 : 0);
    if (!left && !zero) pad(out, ' ', width - total);
    if (sign) out.put(sign);
    for (int i = 0; i < plen; ++i) out.put(prefix[i]);
    if (!left && zero) pad(out, '0', width - total);
    for (int i = 0; i < n; ++i) out.put(str[i]);
    if (left) pad(out, ' ', width - total);
  }
}

}  // namespace

extern "C" {

int putchar(int c) {
  console_put(static_cast<char>(c));
  return static_cast<unsigned char>(c);
}

int puts(const char* s) {
  while (*s) console_put(*s++);
  console_put('\n');
  return 1;
}

int vprintf(const char* fmt, va_list ap) {
  Sink s{nullptr, 0, 0};
  format(s, fmt, ap);
  return static_cast<int>(s.count);
}

int printf(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int n = vprintf(fmt, ap);
  va_end(ap);
  return n;
}

int vsnprintf(char* buf, size_t cap, const char* fmt, va_list ap) {
  Sink s{buf, cap, 0};
  format(s, fmt, ap);
  if (cap) buf[s.count < cap ? s.count : cap - 1] = '\0';
  return static_cast<int>(s.count);
}

int snprintf(char* buf, size_t cap, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int n = vsnprintf(buf, cap, fmt, ap);
  va_end(ap);
  return n;
}

}  // extern "C"
