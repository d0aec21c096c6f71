# SPDX-License-Identifier: MIT
# nix/module.nix under a stand-in of nixpkgs' module system, builtins
# only, so that it is evaluated wherever nix-instantiate is, nixpkgs or
# not (CI has none): nix/tests.nix imports this and runs its tests and
# error cases. The stand-in is what module.nix takes from lib, no more:
# an option is its declaration; a type has a check, a description and a
# `fill` (a submodule fills in its defaults, coercedTo converts); mkIf,
# mkMerge and optionalAttrs are resolved into the config as NixOS and
# home-manager would see it. The checks are ./module-cases.nix, shared
# with ./modules.nix (the real lib.evalModules, when nixpkgs' lib is
# found); here besides: the options, their defaults and the module
# system's refusals, without its exact texts (those are modules.nix's).
let
  b = builtins;
  module = ../../nix/module.nix;

  # ------------------------------------------------------------ types
  mk = name: description: check: { inherit name description check; fill = x: x; };
  types = rec {
    bool = mk "bool" "boolean" b.isBool;
    str = mk "str" "string" b.isString;
    int = mk "int" "signed integer" b.isInt;
    float = mk "float" "floating point number" b.isFloat;
    anything = mk "anything" "anything" (_: true);
    package = mk "package" "package" (x: b.isAttrs x && (x.type or null) == "derivation");
    enum = vs: mk "enum" "one of ${b.concatStringsSep ", " (map b.toJSON vs)}" (x: b.elem x vs) // { values = vs; };
    listOf = t: mk "listOf" "list of ${t.description}" (x: b.isList x && b.all t.check x)
      // { elemType = t; fill = map t.fill; };
    attrsOf = t: mk "attrsOf" "attribute set of ${t.description}" (x: b.isAttrs x && b.all t.check (b.attrValues x))
      // { elemType = t; fill = b.mapAttrs (_: t.fill); };
    nullOr = t: mk "nullOr" "null or ${t.description}" (x: x == null || t.check x)
      // { elemType = t; fill = x: if x == null then null else t.fill x; };
    either = t1: t2: mk "either" "${t1.description} or ${t2.description}" (x: t1.check x || t2.check x)
      // { fill = x: if t1.check x then t1.fill x else t2.fill x; };
    oneOf = ts: b.foldl' either (b.head ts) (b.tail ts);
    addCheck = t: extra: t // { check = x: t.check x && extra x; };
    # as nixpkgs': a value of `from` is converted, then must be a `to`
    coercedTo = from: f: to: mk "coercedTo" "${to.description} or ${from.description} convertible to it"
      (x: (from.check x && to.check (f x)) || to.check x)
      // { fill = x: to.fill (if from.check x then f x else x); };
    submodule = m: {
      name = "submodule";
      description = "submodule";
      module = m;
      check = x: b.isAttrs x && b.all (n: m.options ? ${n} && m.options.${n}.type.check x.${n}) (b.attrNames x);
      fill = x: b.mapAttrs (n: o: if x ? ${n} then o.type.fill x.${n} else o.default) m.options;
    };
  };

  literalExpression = text: { _type = "literalExpression"; inherit text; };
  option = a: a // { _type = "option"; };
  standinLib = {
    inherit types literalExpression;
    mkOption = option;
    mkEnableOption = what: option { type = types.bool; default = false; description = "Whether to enable ${what}."; };
    # nixpkgs' lib.mkPackageOption, for a name at the top of pkgs
    mkPackageOption = pkgs: name: { extraDescription ? "", ... }: option {
      type = types.package;
      default = pkgs.${name};
      defaultText = literalExpression "pkgs.${name}";
      description = "The ${name} package to use." + (if extraDescription == "" then "" else " " + extraDescription);
    };
    mkIf = condition: content: { _type = "if"; inherit condition content; };
    mkMerge = contents: { _type = "merge"; inherit contents; };
    optionalAttrs = cond: as: if cond then as else { };
    optional = cond: x: if cond then [ x ] else [ ];
    concatMap = f: l: b.concatLists (map f l);
    # what package.nix's meta and the test's package take
    platforms.linux = [ "x86_64-linux" "aarch64-linux" ];
    licenses.mit = { spdxId = "MIT"; shortName = "mit"; };
    # formats-ini.nix's `generate` (module.nix does not call it)
    generators.toINI = _: _: throw "standin-modules.nix: no toINI in the stand-in lib";
  };

  # ------------------------------------------------ the module's config
  # mkIf, mkMerge resolved; an attribute under a false mkIf is absent;
  # lists from mkMerge add up, sets merge
  absent = { _type = "absent"; };
  isAbsent = x: b.isAttrs x && (x._type or null) == "absent";
  isPlainSet = x: b.isAttrs x && !(x ? _type) && (x.type or null) != "derivation";
  merge2 = x: y: b.zipAttrsWith (n: vs:
    if b.length vs == 1 then b.head vs
    else let l = b.elemAt vs 0; r = b.elemAt vs 1; in
      if b.isList l && b.isList r then l ++ r
      else if isPlainSet l && isPlainSet r then merge2 l r
      else throw "standin-modules.nix: two definitions of ${n}") [ x y ];
  resolve = v:
    if b.isAttrs v && (v._type or null) == "if" then (if v.condition then resolve v.content else absent)
    else if b.isAttrs v && (v._type or null) == "merge" then
      b.foldl' merge2 { } (b.filter (x: !(isAbsent x)) (map resolve v.contents))
    else if isPlainSet v then
      (let r = b.mapAttrs (_: resolve) v; in removeAttrs r (b.filter (n: isAbsent r.${n}) (b.attrNames r)))
    else v;

  # module.nix with programs.kli = kli: each declared option gets kli's
  # value (checked, filled in) or its default; the config NixOS (home =
  # false) or home-manager would see, with the options they declare empty
  evalModule = { home, pkgs, kli, lib ? standinLib }:
    let
      m = import module { config = cfgTree; inherit lib pkgs; options = opts; };
      opts = (if home then { home = { }; } else { environment = { }; })
        // { programs.kli.settings.definitions = if kli ? settings then [ kli.settings ] else [ ]; };
      decl = m.options.programs.kli;
      unknown = b.filter (n: !(decl ? ${n})) (b.attrNames kli);
      value = n: o:
        if !(kli ? ${n}) then o.default
        else if o.readOnly or false then throw "standin: programs.kli.${n} is read-only"
        else if o.type.check kli.${n} then o.type.fill kli.${n}
        else throw "standin: programs.kli.${n} is not of type ${o.type.description}";
      cfgTree.programs.kli =
        if unknown != [ ] then throw "standin: programs.kli.${b.head unknown} does not exist"
        else b.mapAttrs value decl;
      declared = { warnings = [ ]; assertions = [ ]; }
        // (if home then { home.packages = [ ]; } else { environment = { systemPackages = [ ]; etc = { }; }; });
      resolved = resolve m.config;
    in
    {
      inherit m decl;
      config = merge2 declared (if isAbsent resolved then { } else resolved) // cfgTree;
    };

  cases = import ./module-cases.nix { lib = standinLib; inherit evalModule; };
  inherit (cases) pkgs pkgsBase kliPackage cfgOf;
  off = evalModule { home = false; inherit pkgs; kli = { }; };
  sandboxType = off.decl.sandbox.type.elemType;

  inherit (import ./check.nix) show eq ok throws;
  force = kli: let e = evalModule { home = false; inherit pkgs; kli = { enable = true; } // kli; };
    in [ (cfgOf e).finalPackage.drvPath e.config.warnings e.config.environment.etc ];
in
{
  tests = map (t: t // { name = "module (stand-in lib): ${t.name}"; }) ([
    (eq "the options of programs.kli"
      (b.attrNames off.decl) [ "apiKeyFile" "enable" "finalPackage" "package" "sandbox" "settings" ])
    (eq "defaults: disabled, no settings, no sandbox, the package"
      [ (cfgOf off).enable (cfgOf off).settings (cfgOf off).sandbox (cfgOf off).package.drvPath ]
      [ false { } null kliPackage.drvPath ])
    (eq "sandbox defaults mirror the original (network on, nested userns off, empty lists, the gate on)"
      (sandboxType.fill { })
      { network = true; nestedUserns = false; allowUserns = false; cache = true; writablePaths = [ ]; denyRead = [ ];
        denyEnv = [ ]; keepEnv = [ ]; allowedHosts = [ ]; devices = [ ]; allowSockets = [ ]; checkContainment = true; })
    (ok "devices: a list of the device classes (gpu), nothing else"
      (sandboxType.check { devices = [ "gpu" ]; } && !(sandboxType.check { devices = [ "tpu" ]; })))
    (eq "package: mkPackageOption pkgs \"kli\", with the fallback shown"
      [ off.decl.package.defaultText.text (b.substring 0 24 off.decl.package.description) ]
      [ "pkgs.kli or (pkgs.callPackage ./nix/package.nix { })" "The kli package to use. " ])
    (ok "package: where lib has no mkPackageOption, an option of type package all the same"
      (let e = evalModule { home = false; inherit pkgs; kli = { }; lib = removeAttrs standinLib [ "mkPackageOption" ]; };
       in e.decl.package.type.name == "package" && (cfgOf e).package.drvPath == kliPackage.drvPath))
    (ok "settings: the older shape is converted (coercedTo), the new one kept"
      (let t = off.decl.settings.type;
       in t.fill { capabilities = [ "a" ]; } == { kli.capabilities = [ "a" ]; }
          && t.fill { kli.capabilities = [ "a" ]; } == { kli.capabilities = [ "a" ]; }))
    (ok "a good configuration evaluates, the refusals below are refusals of the bad value"
      (b.deepSeq (force { sandbox.network = false; sandbox.devices = [ "gpu" ]; settings.model.model = "m"; }) true))
    (throws "an unknown option is refused" (force { setting = { }; }))
    (throws "an unknown sandbox option is refused" (force { sandbox.netwrok = false; }))
    (throws "sandbox.network must be a boolean" (force { sandbox.network = "no"; }))
    (throws "sandbox.devices: only gpu" (force { sandbox.devices = [ "tpu" ]; }))
    (throws "settings: a value that is no INI atom is refused" (force { settings.model.base-url = { }; }))
    (throws "settings: a section that is not a set is refused" (force { settings.model = "qwen"; }))
    (throws "finalPackage is read-only" (force { finalPackage = kliPackage; }))
  ] ++ cases.tests);
  inherit (cases) errorCases;
}
