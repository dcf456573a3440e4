package scenarios

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/podsim/podsim/model"
	"go.yaml.in/yaml/v3"
)

// IntOrPercent is a Kubernetes IntOrString as minAvailable and
// maxUnavailable take it: an integer (2) or a percentage ("50%").
type IntOrPercent struct {
	Value   int64
	Percent bool
}

// String writes the value as it was given: "2" or "50%".
func (v IntOrPercent) String() string {
	s := strconv.FormatInt(v.Value, 10)
	if v.Percent {
		s += "%"
	}
	return s
}

// MarshalYAML writes an integer, or a percentage as a string.
func (v IntOrPercent) MarshalYAML() (any, error) {
	if v.Percent {
		return v.String(), nil
	}
	return v.Value, nil
}

// UnmarshalYAML accepts an integer or a string "N%" (N an integer).
func (v *IntOrPercent) UnmarshalYAML(n *yaml.Node) error {
	r := resolveAliasChain(n)
	if r != nil && r.Kind == yaml.ScalarNode && r.ShortTag() == "!!str" {
		num, ok := strings.CutSuffix(r.Value, "%")
		p, err := strconv.ParseInt(num, 10, 64)
		if !ok || err != nil {
			return fmt.Errorf("cannot use %s: want an integer or a percentage such as \"50%%\"", quoteValue(r.Value))
		}
		*v = IntOrPercent{Value: p, Percent: true}
		return nil
	}
	i, err := yamlInt64(n)
	if err != nil {
		return fmt.Errorf("%v; or a percentage such as \"50%%\"", err)
	}
	*v = IntOrPercent{Value: i}
	return nil
}

// model converts v; the validator has bounded it.
func (v *IntOrPercent) model() *model.IntOrPercent {
	if v == nil {
		return nil
	}
	return &model.IntOrPercent{Value: int(v.Value), Percent: v.Percent}
}
