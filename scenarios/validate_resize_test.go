package scenarios

import (
	"strings"
	"testing"

	"github.com/podsim/podsim/model"
)

const resizeHead = "apiVersion: podsim/v1\nkind: Scenario\nmetadata: {name: t}\nspec:\n  pods:\n" +
	"    - metadata: {name: p}\n      spec:\n"

// resizePolicy and the resize fault: what they build, and each refusal at
// its line and column with a suggestion where one helps.
func TestResizeValidation(t *testing.T) {
	ok := resizeHead + "        containers:\n          - name: app\n            image: img\n" +
		"            resizePolicy: [{resourceName: memory, restartPolicy: RestartContainer}]\n" +
		"  faults:\n    - {at: 1m, resize: {pod: p, container: app, requests: {cpu: 500m}, limits: {memory: 1Gi}}}\n"
	s, err := Parse("t.yaml", []byte(ok))
	if err != nil {
		t.Fatal(err)
	}
	got := podSpec(&s.File.Spec.Pods[0].Spec, nil).Containers[0].ResizePolicy
	if got != (model.ResizePolicy{Memory: model.ResizeRestartContainer}) {
		t.Errorf("ResizePolicy = %+v", got)
	}
	for _, tc := range []struct{ yaml, want string }{
		{resizeHead + "        containers:\n          - name: app\n            image: img\n" +
			"            resizePolicy: [{resourceName: cpus, restartPolicy: NotRequired}]\n",
			`t.yaml:11:43: resizePolicy resourceName "cpus": want cpu or memory; did you mean "cpu"?`},
		{resizeHead + "        containers:\n          - name: app\n            image: img\n" +
			"            resizePolicy: [{resourceName: cpu, restartPolicy: RestartContainr}]\n",
			`t.yaml:11:63: resizePolicy restartPolicy "RestartContainr": want NotRequired or RestartContainer; did you mean "RestartContainer"?`},
		{resizeHead + "        restartPolicy: Never\n        containers:\n          - name: app\n            image: img\n" +
			"            resizePolicy: [{resourceName: cpu, restartPolicy: RestartContainer}]\n",
			"t.yaml:12:63: resizePolicy restartPolicy must be NotRequired when the pod's restartPolicy is Never"},
		{resizeHead + "        containers: [{name: app, image: img}]\n" +
			"  faults:\n    - {at: 1m, resize: {pod: p, container: ap, requests: {cpu: 1}}}\n",
			`t.yaml:10:44: pod p has no container "ap"`},
		{resizeHead + "        containers: [{name: app, image: img}]\n" +
			"  faults:\n    - {at: 1m, resize: {pod: p, container: app, requests: {gpu: 1}}}\n",
			`t.yaml:10:60: resize: only cpu and memory can be resized, not "gpu"`},
		{resizeHead + "        containers: [{name: app, image: img}]\n" +
			"  faults:\n    - {at: 1m, resize: {pod: p, container: app}}\n",
			"t.yaml:10:24: resize: give requests or limits (cpu, memory)"},
		{resizeHead + "        initContainers: [{name: init, image: img}]\n        containers: [{name: app, image: img}]\n" +
			"  faults:\n    - {at: 1m, resize: {pod: p, container: init, limits: {cpu: 1}}}\n",
			"t.yaml:11:44: resize: init is an init container that is not a sidecar"},
	} {
		_, err := Parse("t.yaml", []byte(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v\nwant %q", err, tc.want)
		}
	}
}
