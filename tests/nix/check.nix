# SPDX-License-Identifier: MIT
# What the Nix test files share: the checks and their TAP report.
#   eq NAME GOT EXPECTED; ok NAME BOOL; throws NAME EXPR
# An unexpected throw in a test makes that test fail, not the whole file;
# a test with `skip` is not evaluated at all.
let
  b = builtins;
  lines = s: b.filter (l: b.isString l && l != "") (b.split "\n" s);
in
rec {
  show = v:
    let r = b.tryEval (b.toJSON v);
    in if r.success then r.value else "<${b.typeOf v}>";
  eq = name: got: expected: {
    inherit name;
    result = b.tryEval (b.deepSeq got (got == expected));
    diag = "expected: ${show expected}\ngot:      ${show got}";
  };
  ok = name: cond: { inherit name; result = b.tryEval cond; diag = ""; };
  throws = name: expr: {
    inherit name;
    result = { success = true; value = !(b.tryEval (b.deepSeq expr true)).success; };
    diag = "evaluated without an error";
  };

  tapLine = i: t:
    let
      passed = t.result.success && t.result.value == true;
      why = if !t.result.success then "the test threw an error" else t.diag;
      diag = b.concatStringsSep "" (map (l: "# ${l}\n") (lines why));
    in
    if t ? skip then "ok ${toString i} - ${t.name} # SKIP ${t.skip}\n"
    else if passed then "ok ${toString i} - ${t.name}\n"
    else "not ok ${toString i} - ${t.name}\n${diag}";

  # TESTS as one TAP report
  tap = tests: b.concatStringsSep "" (b.genList (i: tapLine (i + 1) (b.elemAt tests i)) (b.length tests))
    + "1..${toString (b.length tests)}\n";
}
