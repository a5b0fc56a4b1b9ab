"""Lists free functions a header declares whose definition is in a .cc other than the header's
own (render/x/y.h -> render/x/y.cc): such a declaration belongs in a header beside the .cc that
defines it. Regex-based and approximate: it matches by name (an overload defined elsewhere looks
like the same function), and a class member defined out of line (Class::Name) is not counted.
usage: misplaced_declarations.py [FOLDER...]   (default: every source folder; paths from the
repository's root)"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
FOLDERS = ["platform", "probes", "sqlite_bench", "text", "model", "analysis", "gate",
           "codec", "explain", "render", "output", "run", "cli"]
# By design, each a seam with its implementation files apart:
# declared once, defined once per OS file (platform/linux_*.cc, darwin_*.cc, *_unsupported.cc);
ALLOWED = {("platform/platform.h", "Default"), ("platform/inspect.h", "InspectPath"),
           ("platform/crash_device.h", "CleanCrashDevices"),
           ("platform/crash_device.h", "CrashDeviceMissing"),
           ("platform/sync_observer.h", "OpenSyncObserver"),
           # the POSIX implementation of a seam, as posix_platform.cc is platform.h's;
           ("platform/program.h", "RunProgram"),
           # what the crash device and its FUSE server share (one header, two .cc files).
           ("platform/linux_crash_server.h", "CopySparse"),
           ("platform/linux_crash_server.h", "ServeCrashImage")}

NAMESPACE = re.compile(r'(?:^|[;}])\s*(?:inline\s+)?namespace\s*([\w:]*)\s*$|extern\s+"C"\s*$')
# The name called or declared: the last identifier (or operator) before the first parenthesis.
FUNCTION = re.compile(r"^(?:[\w:<>,*&~\s]|\[\[[^\]]*\]\])*?(?:\b([a-z_][\w]*)::)?"
                      r"\b(operator\s*[^\s(]+|~?[A-Za-z_]\w*)\s*\(")
NOT_FUNCTION = re.compile(r"^\s*(?:using|typedef|return|static_assert|struct|class|enum|union|"
                          r"friend|template\s*<[^>]*>\s*(?:struct|class))\b")


def strip(text):
    """The text without comments, string and character literals, and preprocessor lines."""
    text = re.sub(r'//[^\n]*|/\*.*?\*/|R"(\w*)\(.*?\)\1"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                  lambda m: '""' if m.group(0)[:1] in 'R"' else (" " if m.group(0)[:1] == "/"
                                                                  else "''"),
                  text, flags=re.S)
    return re.sub(r"^\s*#(?:[^\n]*\\\n)*[^\n]*", "", text, flags=re.M)


def parameters(stmt, start):
    """The parameter types of the call starting at stmt[start] ("(")", names, defaults and
    namespace qualifiers left out: "const JsonFields& f, int n = 0" -> "const JsonFields&,int"."""
    depth, end = 0, start
    for end in range(start, len(stmt)):
        depth += {"(": 1, ")": -1}.get(stmt[end], 0)
        if depth == 0:
            break
    params, depth, current = [], 0, ""
    for ch in stmt[start + 1:end] + ",":
        depth += {"(": 1, "<": 1, "{": 1, ")": -1, ">": -1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            params.append(current)
            current = ""
        else:
            current += ch
    types = []
    for param in params:
        param = re.sub(r"\b\w+::", "", param.split("=")[0]).strip()
        words = param.replace("*", " * ").replace("&", " & ").split()
        if len(words) > 1 and re.fullmatch(r"[a-z_]\w*", words[-1]) and words[-1] not in (
                "int", "long", "char", "short", "double", "float", "bool", "const"):
            words.pop()  # the parameter's name
        types.append(re.sub(r" (?=[*&>])|(?<=[*&]) (?=[*&])", "", " ".join(words)))
    return ",".join(t for t in types if t)


def scan(path):
    """(declared, defined): the free functions declared (ending in ';') and defined (a body) at
    namespace scope, outside anonymous namespaces, as (name, parameter types)."""
    text = strip(path.read_text())
    declared, defined = set(), set()
    stack = []  # per open brace: "ns", "anon" or "other"
    statement, parens = "", 0

    def at_namespace_scope():
        return all(kind == "ns" for kind in stack)

    def function_name(stmt):
        stmt = " ".join(stmt.split())
        if NOT_FUNCTION.match(stmt):
            return None
        m = FUNCTION.match(stmt)
        if not m or "=" in stmt[:m.start(2)]:
            return None
        if m.group(1) is None and "::" in stmt[m.start(2) - 2:m.start(2)]:
            return None  # Class::Member
        return m.group(2), parameters(stmt, stmt.index("(", m.end(2) - 1))

    for ch in text:
        if ch == "(":
            parens += 1
        elif ch == ")":
            parens -= 1
        if parens > 0 or ch not in "{};":
            statement += ch
            continue
        if ch == "{":
            ns = NAMESPACE.search(statement)
            if ns:
                stack.append("ns" if ns.group(1) or "extern" in ns.group(0) else "anon")
            else:
                name = function_name(statement) if at_namespace_scope() else None
                if name and re.search(r"\)[\w\s&]*(?:->[^{]*)?(?::[^{]*)?$", statement.strip()):
                    defined.add(name)
                stack.append("other")
        elif ch == "}":
            if stack:
                stack.pop()
        elif ch == ";" and at_namespace_scope():
            name = function_name(statement)
            if name and re.search(r"\)[\w\s&]*(?:->.*)?(?:=\s*(?:delete|default))?$",
                                  statement.strip(), flags=re.S):
                declared.add(name)
        statement = ""
    return declared, defined


def main():
    folders = sys.argv[1:] or FOLDERS
    sources = [p for f in FOLDERS for p in sorted((ROOT / f).rglob("*")) if p.suffix in (".h", ".cc")]
    scanned = {p.relative_to(ROOT).as_posix(): scan(p) for p in sources}
    definers, by_name = {}, {}
    for name, (_, defined) in scanned.items():
        if name.endswith(".cc"):
            for fn in defined:
                definers.setdefault(fn, []).append(name)
                by_name.setdefault(fn[0], []).append(name)
    found = 0
    for header, (declared, _) in sorted(scanned.items()):
        if not header.endswith(".h") or not any(header.startswith(f + "/") for f in folders):
            continue
        own = header[:-2] + ".cc"
        for fn in sorted(declared):
            # By name when no definition has the same parameter types (spelt differently).
            where = definers.get(fn) or by_name.get(fn[0], [])
            if not where or own in where or (header, fn[0]) in ALLOWED:
                continue
            print(f"{header}: {fn[0]}({fn[1]}) defined in {', '.join(sorted(set(where)))}")
            found += 1
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
