package serve

import (
	"embed"
	"io"
	"net/http"
	"strings"
)

// The OpenAPI documents kubectl fetches before apply, create, explain and
// --validate: /openapi/v2 (the protobuf kubectl asks for, or JSON) and
// /openapi/v3, which lists a document per group version
// (/openapi/v3/api/v1, /openapi/v3/apis/apps/v1, ...). They are made
// (openapi_gen_test.go) from the k8s.io/api Go types of the resources
// podsim serves, as the API server's are made from the same types
// (kube-openapi's builder): each type's fields by their JSON names,
// descriptions from the types' SwaggerDoc, and the extensions kubectl
// reads (x-kubernetes-group-version-kind; x-kubernetes-patch-strategy and
// -merge-key). Each PATCH and POST path takes the fieldValidation
// parameter, so that kubectl leaves validation to the server (create
// checks an object strictly).

// openAPIFiles are the documents, made ahead of time from the k8s.io/api
// types rather than when podsim runs (a process that made them would link
// every type's SwaggerDoc, whose tables of descriptions every process
// would build at start-up): openapi/v2.json and its protobuf openapi/v2.pb
// (gnostic's openapi_v2.Document, as the API server serves it to kubectl),
// openapi/v3.json, the list of the group versions' documents, and
// openapi/v3/<group version>.json. `go test ./serve -run OpenAPI -update`
// writes them again (openapi_gen_test.go); without -update, the tests
// fail while they differ from what the types give.
//
//go:embed openapi
var openAPIFiles embed.FS

// openAPI answers GET /openapi/v2, /openapi/v3 and /openapi/v3/<gv path>.
func (s *Server) openAPI(w http.ResponseWriter, r *http.Request, path string) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		writeError(w, simulation(r.Method, r.URL.Path))
		return
	}
	file, ctype := path+".json", "application/json" // an invalid path (..) finds no file
	if path == "openapi/v2" && strings.Contains(r.Header.Get("Accept"), "application/com.github.proto-openapi.spec.v2") {
		file, ctype = "openapi/v2.pb", "application/com.github.proto-openapi.spec.v2.v1.0+protobuf"
	}
	f, err := openAPIFiles.Open(file)
	if err != nil {
		writeError(w, notFound(path))
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", ctype)
	w.WriteHeader(http.StatusOK)
	io.Copy(w, f) // the embedded bytes, without a copy of the whole document
}
