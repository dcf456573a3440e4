package karpenter

// Scaled is scaled, for the external tests.
var Scaled = scaled

// Compatible is compatible, for the external tests.
var Compatible = compatible
