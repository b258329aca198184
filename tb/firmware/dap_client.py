#!/usr/bin/env python3
"""A scripted Debug Adapter Protocol client for the tests of `sanvp fw debug --dap` (issue 20
part 3). Python standard library only.

    dap_client.py [--tcp] [--timeout S] SCRIPT -- COMMAND...

starts COMMAND (the adapter) and plays SCRIPT, one JSON object per line ('#' lines are comments):

  {"send": {"command": C, "arguments": {...}}}   a request (seq and type are added)
  {"raw": "Content-Length: 3\\r\\n\\r\\n{x}"}     bytes sent exactly as given (malformed input)
  {"expect": {...}}        the next message that is not an output event must match (see below)
  {"output": "text"}       the output events' text so far (or soon) contains "text"
  {"sleep": S}             wait S seconds (to split a message across reads)
  {"close": true}          close our end of the connection
  {"exit": N}              the adapter exits with status N

Matching is by subset: every key of an expected object must be present and match; an expected
list matches the first elements of the actual list. Special expected values:
  {"$re": "regex"}   a string that re.search matches
  {"$save": "name"}  anything; remembered as ${name} for later "send" lines
  {"$contains": X}   a list with at least one element matching X
  {"$len": N}        a list of N elements
In "send" and "expect" lines, the string "${name}" is replaced by the saved value (keeping its type) and
"${name}" inside a longer string by its text.

Every message is printed (-> sent, <- received); a mismatch prints FAIL and exits 1.
With --tcp, COMMAND must print "listening on 127.0.0.1:PORT" on stderr (use --dap-port 0).
"""
import json
import queue
import re
import socket
import subprocess
import sys
import threading
import time


class Fail(Exception):
    pass


def read_messages(stream, out_q):
    """Parses Content-Length framed messages strictly; puts dicts, then None at the end."""
    try:
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                c = stream.read(1)
                if not c:
                    out_q.put(None)
                    return
                header += c
            m = re.fullmatch(rb"Content-Length: (\d+)\r\n\r\n", header)
            if not m:
                out_q.put(Fail("bad header from the adapter: %r" % header))
                return
            n = int(m.group(1))
            body = b""
            while len(body) < n:
                chunk = stream.read(n - len(body))
                if not chunk:
                    out_q.put(Fail("the adapter's stream ended inside a message body"))
                    return
                body += chunk
            try:
                out_q.put(json.loads(body.decode("utf-8")))
            except ValueError as e:
                out_q.put(Fail("the adapter sent invalid JSON (%s): %r" % (e, body[:200])))
                return
    except OSError:
        out_q.put(None)


def matches(exp, act, saved, path="$"):
    """Raises Fail naming the first difference."""
    if isinstance(exp, dict) and len(exp) == 1 and next(iter(exp)).startswith("$"):
        op, arg = next(iter(exp.items()))
        if op == "$re":
            if not isinstance(act, str) or not re.search(arg, act):
                raise Fail("%s: %r does not match /%s/" % (path, act, arg))
        elif op == "$save":
            saved[arg] = act
        elif op == "$contains":
            if not isinstance(act, list):
                raise Fail("%s: expected a list, got %r" % (path, act))
            for i, a in enumerate(act):
                try:
                    matches(arg, a, saved, "%s[%d]" % (path, i))
                    return
                except Fail:
                    pass
            raise Fail("%s: no element matches %s" % (path, json.dumps(arg)))
        elif op == "$len":
            if not isinstance(act, list) or len(act) != arg:
                raise Fail("%s: expected a list of %d, got %r" % (path, arg, act))
        else:
            raise Fail("script error: unknown matcher %s" % op)
        return
    if isinstance(exp, dict):
        if not isinstance(act, dict):
            raise Fail("%s: expected an object, got %r" % (path, act))
        for k, v in exp.items():
            if k not in act:
                raise Fail("%s: missing key %r" % (path, k))
            matches(v, act[k], saved, "%s.%s" % (path, k))
    elif isinstance(exp, list):
        if not isinstance(act, list) or len(act) < len(exp):
            raise Fail("%s: expected at least %d elements, got %r" % (path, len(exp), act))
        for i, v in enumerate(exp):
            matches(v, act[i], saved, "%s[%d]" % (path, i))
    elif type(exp) is not type(act) and not (isinstance(exp, (int, float)) and isinstance(act, (int, float)) and
                                                not isinstance(exp, bool) and not isinstance(act, bool)):
        raise Fail("%s: expected %r, got %r" % (path, exp, act))
    elif exp != act:
        raise Fail("%s: expected %r, got %r" % (path, exp, act))


def substitute(v, saved):
    if isinstance(v, dict):
        return {k: substitute(x, saved) for k, x in v.items()}
    if isinstance(v, list):
        return [substitute(x, saved) for x in v]
    if isinstance(v, str):
        whole = re.fullmatch(r"\$\{(\w+)\}", v)
        if whole:
            return saved[whole.group(1)]
        return re.sub(r"\$\{(\w+)\}", lambda m: str(saved[m.group(1)]), v)
    return v


class Session:
    def __init__(self, cmd, tcp, timeout):
        self.timeout = timeout
        self.q = queue.Queue()
        self.output = ""
        self.seq = 1
        self.saved = {}
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.stderr_lines = queue.Queue()
        self.stderr_pump = threading.Thread(target=self._pump_stderr, daemon=True)
        self.stderr_pump.start()
        if tcp:
            port = self._wait_port()
            self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
            self.sock.settimeout(None)
            self.wfile = self.sock.makefile("wb", buffering=0)
            rfile = self.sock.makefile("rb", buffering=0)
        else:
            self.sock = None
            self.wfile = self.proc.stdin
            rfile = self.proc.stdout
        threading.Thread(target=read_messages, args=(rfile, self.q), daemon=True).start()

    def _pump_stderr(self):
        for line in self.proc.stderr:
            text = line.decode("utf-8", "replace")
            sys.stdout.write("stderr: " + text)
            self.stderr_lines.put(text)
        self.stderr_lines.put(None)

    def _wait_port(self):
        end = time.time() + self.timeout
        while time.time() < end:
            try:
                line = self.stderr_lines.get(timeout=max(0.01, end - time.time()))
            except queue.Empty:
                break
            if line is None:
                break
            m = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
            if m:
                return int(m.group(1))
        raise Fail("the adapter did not report its TCP port")

    def write(self, data):
        self.wfile.write(data)
        self.wfile.flush()

    def send(self, req):
        msg = dict(substitute(req, self.saved))
        msg["seq"] = self.seq
        msg["type"] = "request"
        self.seq += 1
        body = json.dumps(msg).encode("utf-8")
        print("-> " + json.dumps(msg))
        self.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def next_message(self):
        """The next message that is not an output event (those are collected)."""
        end = time.time() + self.timeout
        while True:
            try:
                m = self.q.get(timeout=max(0.01, end - time.time()))
            except queue.Empty:
                raise Fail("no message from the adapter within %.0f s" % self.timeout)
            if isinstance(m, Fail):
                raise m
            if m is None:
                self.q.put(None)  # stays at the end
                raise Fail("the adapter closed the connection")
            print("<- " + json.dumps(m))
            if m.get("type") == "event" and m.get("event") == "output":
                self.output += m.get("body", {}).get("output", "")
                continue
            return m

    def wait_output(self, text):
        end = time.time() + self.timeout
        while text not in self.output:
            try:
                m = self.q.get(timeout=max(0.01, end - time.time()))
            except queue.Empty:
                raise Fail("output %r not seen within %.0f s; output so far %r" % (text, self.timeout, self.output))
            if m is None or isinstance(m, Fail):
                self.q.put(m)
                raise Fail("output %r not seen before the end; output so far %r" % (text, self.output))
            print("<- " + json.dumps(m))
            if m.get("type") == "event" and m.get("event") == "output":
                self.output += m.get("body", {}).get("output", "")
            else:
                raise Fail("expected output %r, got %s" % (text, json.dumps(m)))

    def close(self):
        if self.sock:
            self.sock.shutdown(socket.SHUT_WR)
        else:
            self.proc.stdin.close()

    def step(self, line):
        if "send" in line:
            self.send(line["send"])
        elif "raw" in line:
            print("-> raw %r" % line["raw"])
            self.write(line["raw"].encode("utf-8"))
        elif "expect" in line:
            matches(substitute(line["expect"], self.saved), self.next_message(), self.saved)
        elif "output" in line:
            self.wait_output(line["output"])
        elif "sleep" in line:
            time.sleep(float(line["sleep"]))
        elif "close" in line:
            self.close()
        elif "exit" in line:
            try:
                rc = self.proc.wait(timeout=self.timeout)
            except subprocess.TimeoutExpired:
                raise Fail("the adapter did not exit within %.0f s" % self.timeout)
            self.stderr_pump.join(timeout=self.timeout)  # the adapter's last stderr lines are in the transcript
            if rc != line["exit"]:
                raise Fail("the adapter exited with %d, expected %d" % (rc, line["exit"]))
        else:
            raise Fail("script error: %s" % json.dumps(line))


def main(argv):
    tcp, timeout = False, 20.0
    args = argv[1:]
    while args and args[0].startswith("--") and args[0] != "--":
        if args[0] == "--tcp":
            tcp = True
            args = args[1:]
        elif args[0] == "--timeout":
            timeout = float(args[1])
            args = args[2:]
        else:
            break
    if len(args) < 3 or args[1] != "--":
        sys.stderr.write(__doc__)
        return 2
    script = []
    with open(args[0], encoding="utf-8") as f:
        for n, text in enumerate(f, 1):
            if text.strip() and not text.lstrip().startswith("#"):
                try:
                    script.append((n, json.loads(text)))
                except ValueError as e:
                    sys.stderr.write("%s:%d: %s\n" % (args[0], n, e))
                    return 2
    s = None
    try:
        s = Session(args[2:], tcp, timeout)
        for n, line in script:
            s.step(line)
        print("PASS")
        return 0
    except Fail as e:
        print("FAIL (script line %d): %s" % (n if s else 0, e))
        return 1
    finally:
        if s and s.proc.poll() is None:
            s.proc.kill()
            s.proc.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
