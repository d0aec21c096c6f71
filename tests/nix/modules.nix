# SPDX-License-Identifier: MIT
# nix/module.nix under the REAL module system: nixpkgs' lib (found at run
# time, outside this tree: nixpkgsLib, a string, the directory holding
# lib/default.nix) and lib.evalModules, as NixOS and as home-manager
# evaluate it, each with a stub module declaring the options the module
# sets there as nixpkgs and home-manager declare them.
# tests/integration/nix-modules.test runs it:
#
#   nix-instantiate --eval --strict --store dummy:// tests/nix/modules.nix \
#     --argstr nixpkgsLib /path/to/nixpkgs/lib
#
# (a TAP report as one string), --argstr case errors ("NAME<TAB>MESSAGE"
# lines), --argstr case error:NAME (evaluate that case: it must fail with
# MESSAGE), --argstr case docs (the options' documentation as nixpkgs'
# options-doc build makes it, as JSON). The checks that hold under any
# module system (installs, settings, warnings, the wrapper, derivation
# paths, lib.nix's error texts) are in ./module-cases.nix, which
# ./standin-modules.nix runs too, without nixpkgs; here are those and what
# only the real one shows: the documentation, merging across modules, the
# types and their errors.
{ case ? "tap", nixpkgsLib }:
let
  b = builtins;
  lib = import (if b.isPath nixpkgsLib then nixpkgsLib else /. + nixpkgsLib);
  module = ../../nix/module.nix;

  inherit (cases) pkgs pkgsBase kliPackage nixos home cfgOf etcFile lines hasInfix;

  # What NixOS declares of what the module sets (nixos/modules/config/
  # system-path.nix, system/etc/etc.nix, misc/assertions.nix), types as
  # there.
  nixosStub = { lib, ... }: with lib; {
    options = {
      environment.systemPackages = mkOption { type = types.listOf types.package; default = [ ]; };
      environment.etc = mkOption {
        default = { };
        type = types.attrsOf (types.submodule ({ name, ... }: {
          options = {
            enable = mkOption { type = types.bool; default = true; };
            target = mkOption { type = types.str; default = name; };
            text = mkOption { type = types.nullOr types.lines; default = null; };
            source = mkOption { type = types.path; };
            mode = mkOption { type = types.str; default = "symlink"; };
          };
        }));
      };
      warnings = mkOption { type = types.listOf types.str; default = [ ]; };
      assertions = mkOption { type = types.listOf types.unspecified; default = [ ]; };
    };
  };
  # What home-manager declares (modules/home-environment.nix, files.nix,
  # misc/assertions.nix): home.packages, home.file, home.homeDirectory.
  homeStub = { lib, ... }: with lib; {
    options = {
      home.packages = mkOption { type = types.listOf types.package; default = [ ]; };
      home.homeDirectory = mkOption { type = types.path; default = "/home/alice"; };
      home.file = mkOption {
        default = { };
        type = types.attrsOf (types.submodule ({ name, ... }: {
          options = {
            target = mkOption { type = types.str; default = name; };
            text = mkOption { type = types.nullOr types.lines; default = null; };
            source = mkOption { type = types.path; };
          };
        }));
      };
      warnings = mkOption { type = types.listOf types.str; default = [ ]; };
      assertions = mkOption { type = types.listOf types.unspecified; default = [ ]; };
    };
  };

  evalWith = stub: p: kli: lib.evalModules {
    modules = [ module stub { _module.args.pkgs = p; programs.kli = kli; } ];
  };
  cases = import ./module-cases.nix {
    inherit lib;
    evalModule = { home, pkgs, kli }: evalWith (if home then homeStub else nixosStub) pkgs kli;
  };

  # the options-doc check: nixpkgs' options-doc build renders every option
  # with lib.optionAttrSetToDocList and writes every field; here with a
  # pkgs that has only `formats`, so a default that needs pkgs without a
  # defaultText fails, as it does in the split options-doc build
  docPkgs = { inherit (pkgsBase) formats; };
  docEval = evalWith nixosStub docPkgs { };
  # (what the manual shows: visible, not internal, as make-options-doc
  # filters them)
  docList = b.filter (o: (lib.hasPrefix "programs.kli." o.name || o.name == "programs.kli") && o.visible && !o.internal)
    (lib.optionAttrSetToDocList docEval.options);
  docForced = map (o: removeAttrs o [ "declarations" ]) docList;
  docOf = name: b.head (b.filter (o: o.name == "programs.kli.${name}") docList ++ [ { } ]);
  # description, default, example: a markdown string or literalExpression,
  # never the retired literalExample, literalDocBook or mdDoc
  retired = v: b.isAttrs v && b.elem (v._type or "") [ "literalExample" "literalDocBook" "mdDoc" ];
  typeOf = name: (docOf name).type or null;

  # ------------------------------------------------------ error cases
  # The module system's own (types, unknown and read-only options), then
  # lib.nix's (./module-cases.nix). Each must be an evaluation error whose
  # message holds `message` (nix-modules.test checks the text, which
  # tryEval cannot see).
  force = e: b.deepSeq [ (cfgOf e).finalPackage.drvPath e.config.warnings
    (e.config.environment.etc or { }) ] true;
  bad = kli: force (nixos ({ enable = true; } // kli));
  errorCases = cases.errorCases // {
    type-network = { expr = bad { sandbox.network = "no"; }; message = "is not of type `boolean'"; };
    type-cache = { expr = bad { sandbox.cache = "per-workspace"; }; message = "is not of type `boolean or value \"shared\" (singular enum)'"; };
    type-devices = { expr = bad { sandbox.devices = [ "tpu" ]; }; message = "is not of type `value \"gpu\" (singular enum)'"; };
    type-unknown-sandbox = { expr = bad { sandbox.netwrok = false; }; message = "The option `programs.kli.sandbox.netwrok' does not exist"; };
    type-unknown-option = { expr = bad { setting = { }; }; message = "The option `programs.kli.setting' does not exist"; };
    type-settings-atom = { expr = bad { settings.model.base-url = { }; }; message = "is not of type `INI atom (null, bool, int, float or string) or a list of them for duplicate keys'"; };
    type-settings-not-section = { expr = bad { settings.model = "qwen"; }; message = "A definition for option `programs.kli.settings.model' is not of type `section of an INI file"; };
    read-only = { expr = bad { finalPackage = kliPackage; }; message = "The option `programs.kli.finalPackage' is read-only"; };
  };

  # ------------------------------------------------------------- tests
  inherit (import ./check.nix) show eq ok throws;

  optionNames = [ "apiKeyFile" "enable" "finalPackage" "package" "sandbox" "settings" ]
    ++ map (n: "sandbox.${n}") [ "allowSockets" "allowUserns" "allowedHosts" "cache" "checkContainment"
      "denyEnv" "denyRead" "devices" "keepEnv" "nestedUserns" "network" "writablePaths" ];

  tests = [
    (ok "lib is nixpkgs' own (lib.evalModules, lib.version ${lib.version or "?"})"
      (b.isString lib.version && lib ? evalModules && lib ? optionAttrSetToDocList))

    # the options-doc check
    (eq "docs: programs.kli has these options (and the sandbox's)"
      (lib.sort lib.lessThan (map (o: lib.removePrefix "programs.kli." o.name) docList))
      (lib.sort lib.lessThan optionNames))
    (ok "docs: every field of every option renders (optionAttrSetToDocList, forced)"
      (b.deepSeq docForced true))
    (ok "docs: every option has a description, a markdown string"
      (b.all (o: b.isString o.description && o.description != "") docList))
    (ok "docs: every option has a type with a description"
      (b.all (o: b.isString o.type && o.type != "unspecified" && o.type != "") docList))
    (ok "docs: no literalExample, literalDocBook or mdDoc (retired by nixpkgs)"
      (b.all (o: !(retired (o.default or null)) && !(retired (o.example or null))) docList
       && !(hasInfix "literalExample" (b.readFile module)) && !(hasInfix "mdDoc" (b.readFile module))))
    (ok "docs: every option that is not read-only shows a default"
      (b.all (o: o ? default || o.readOnly) docList))
    (eq "docs: package is nixpkgs' mkPackageOption, with pkgs.kli's fallback shown"
      [ (typeOf "package") ((docOf "package").default.text or null) (lib.hasPrefix "The kli package to use." (docOf "package").description) ]
      [ "package" "pkgs.kli or (pkgs.callPackage ./nix/package.nix { })" true ])
    (eq "docs: the types"
      (map typeOf [ "enable" "apiKeyFile" "sandbox" "sandbox.network" "sandbox.cache" "sandbox.devices" "sandbox.writablePaths" "settings" ])
      [
        "boolean" "null or string" "null or (submodule)" "boolean" "boolean or value \"shared\" (singular enum)"
        "list of value \"gpu\" (singular enum)" "list of string"
        "(attribute set of section of an INI file (attrs of INI atom (null, bool, int, float or string) or a list of them for duplicate keys)) or (the older shape (capabilities, profile, profiles.NAME)) convertible to it"
      ])
    (ok "docs: the settings example renders as the literal expression it is"
      (hasInfix "\"profile reviewer\"" ((docOf "settings").example.text or "")))

    # what only the real module system does: definitions from two modules
    (ok "settings merge as nixpkgs' ini type does: lists from two modules add up"
      (let e = lib.evalModules { modules = [ module nixosStub { _module.args.pkgs = pkgs; programs.kli = { enable = true; settings.kli.capabilities = [ "file/read" ]; }; }
                                             { programs.kli.settings.kli.capabilities = [ "process/exec" ]; } ]; };
       in b.elem "capabilities = file/read, process/exec" (lines (etcFile e).text)
          || b.elem "capabilities = process/exec, file/read" (lines (etcFile e).text)))
  ]
  ++ cases.tests
  ++ map (n: throws "error case ${n} is an evaluation error" errorCases.${n}.expr) (b.attrNames errorCases);

  tap = (import ./check.nix).tap tests;
in
if case == "tap" then tap
else if case == "errors" then b.concatStringsSep "" (map (n: "${n}\t${errorCases.${n}.message}\n") (b.attrNames errorCases))
else if case == "docs" then b.toJSON docForced
else if lib.hasPrefix "error:" case then errorCases.${lib.removePrefix "error:" case}.expr
else throw "modules.nix: unknown case ${case}"
