// SPDX-License-Identifier: MIT
// Go's encoding/json over a docker config.json (argv[1]), into a struct
// shaped as docker's own: field names matched in any case, with Unicode
// simple folding (auth\u017f is auths), the last duplicate kept.
package main

import (
	"encoding/json"
	"fmt"
	"os"
)

type authConfig struct {
	Username, Password, Auth, Email, ServerAddress, IdentityToken, RegistryToken string
}

type configFile struct {
	Auths map[string]authConfig `json:"auths"`
}

func main() {
	b, err := os.ReadFile(os.Args[1])
	if err != nil {
		os.Exit(2)
	}
	var c configFile
	if json.Unmarshal(b, &c) != nil {
		os.Exit(2)
	}
	fmt.Printf("%+v\n", c)
}
