package scenarios

import (
	"embed"
)

// library holds the ready scenarios shipped with podsim.
//
//go:embed demo.yaml
var library embed.FS

// DemoPath is the name the embedded demo goes by in messages.
const DemoPath = "demo.yaml"

// Demo returns the embedded demo scenario that `podsim run` plays without a file.
func Demo() (*Scenario, error) {
	data, err := library.ReadFile(DemoPath)
	if err != nil {
		return nil, err
	}
	return Parse("(embedded) "+DemoPath, data)
}
