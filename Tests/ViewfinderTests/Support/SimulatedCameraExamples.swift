import Testing

/// The example suites that run the simulated camera: one test at a time, so as not to crowd out other tests.
@Suite(.serialized) enum SimulatedCameraExamples {}
