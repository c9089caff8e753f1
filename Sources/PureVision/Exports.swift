// `PureVision` is the one module an app imports: the tasks live here, and the modules whose types appear in the
// tasks' signatures come with it (images and drawing, interpreter options, tensors).
@_exported import PureVisionCore
@_exported import PureVisionEngine
@_exported import PureVisionImage
