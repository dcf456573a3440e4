package yamlstrict

import (
	"bytes"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// A key indented one space off is reported at its own line, not at the
// start of the block the parser was in, with the lines it fails to line
// up with; other syntax errors keep the parser's line.
func TestSyntaxErrorAtTheMisindentedLine(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"spec:\n  template:\n    spec:\n      containers:\n      - name: web\n        ports: [{containerPort: 80}]\n       image: nginx\n",
			"x.yaml:7:8: invalid YAML: did not find expected key: this line's indentation (7) matches no block above it (line 4 is indented 6, line 5 is indented 8)"},
		{"a:\n  b: 1\n c: 2\n", "x.yaml:3:2: invalid YAML: did not find expected key: this line's indentation (1) matches no block above it (line 1 is indented 0, line 2 is indented 2)"},
		{"kind: Pod\nspec:\n  containers:\n  - name: a\n    resources: {}\n      image: b\n",
			"x.yaml:6:7: invalid YAML: did not find expected key: this line's indentation (6) matches no block above it (line 5 is indented 4)"},
		{"a: |\n  text:\n     more: text\nb:\n  - c: 1\n   d: 2\n", "x.yaml:6:4: invalid YAML: did not find expected '-' indicator: this line's indentation (3) matches no block above it (line 5 is indented 2, line 5 is indented 4)"},
		{"a: [1,\n", "x.yaml:1:1: invalid YAML: did not find expected node content"},
	} {
		var n yaml.Node
		err := yaml.NewDecoder(bytes.NewReader([]byte(c.doc))).Decode(&n)
		if err == nil {
			t.Fatalf("%q parses", c.doc)
		}
		if got := SyntaxErrorIn("x.yaml", []byte(c.doc), err).Error(); got != c.want {
			t.Errorf("%q:\ngot  %s\nwant %s", strings.SplitN(c.doc, "\n", 2)[0], got, c.want)
		}
	}
}
