# SPDX-License-Identifier: MIT
# A stand-in for nixpkgs' `pkgs.formats.ini`, which lives in nixpkgs'
# pkgs/pkgs-lib/formats.nix (not in lib/, so not where the tests find
# nixpkgs' lib: KJ_NIXPKGS_LIB or <nixpkgs/lib>). It is
# written anew, not copied, from the real lib's pieces exactly as that file
# combines them: the atom is nullOr (oneOf [ bool int float str ]) with
# its description, with listsAsDuplicateKeys `either atom (listOf atom)`,
# a section attrsOf that, the type attrsOf sections, and `generate` is
# lib.generators.toINI then writeText. Only what programs.kli uses
# (listsAsDuplicateKeys; no listToValue, no atomsCoercedToLists).
{ lib, writeText }:
{
  ini = { listsAsDuplicateKeys ? false, ... }@args:
    let
      inherit (lib.types) nullOr oneOf bool int float str either listOf attrsOf;
      single = nullOr (oneOf [ bool int float str ]) // {
        description = "INI atom (null, bool, int, float or string)";
      };
      atom =
        if listsAsDuplicateKeys then
          either single (listOf single) // {
            description = single.description + " or a list of them for duplicate keys";
          }
        else single;
      section = attrsOf atom // {
        description = "section of an INI file (attrs of " + atom.description + ")";
      };
    in
    {
      type = attrsOf section;
      lib.types.atom = atom;
      generate = name: value: writeText name (lib.generators.toINI (removeAttrs args [ "listToValue" "atomsCoercedToLists" ]) value);
    };
}
