package scenarios

import (
	"strings"
	"testing"
	"time"
)

func TestActiveDeadlineSeconds(t *testing.T) {
	const head = "apiVersion: podsim/v1\nkind: Scenario\nmetadata: {name: t}\nspec:\n  pods:\n" +
		"    - metadata: {name: p}\n      spec:\n        containers: [{name: app, image: img}]\n"
	s, err := Parse("t.yaml", []byte(head+"        activeDeadlineSeconds: 30\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := podSpec(&s.File.Spec.Pods[0].Spec, nil).ActiveDeadline; got == nil || *got != 30*time.Second {
		t.Errorf("ActiveDeadline = %v, want 30s", got)
	}
	for _, bad := range []string{"0", "-5", "2147483648"} {
		_, err := Parse("t.yaml", []byte(head+"        activeDeadlineSeconds: "+bad+"\n"))
		if want := "t.yaml:9:32: activeDeadlineSeconds must be between 1 and 2147483647"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", bad, err, want)
		}
	}
}
