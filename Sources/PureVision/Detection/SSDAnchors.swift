/// Generates SSD anchors exactly as MediaPipe's `SsdAnchorsCalculator` (non-multiscale path) does.
public enum SSDAnchors {
    /// The largest anchor count `generate` accepts, so hostile options cannot exhaust memory.
    public static let maximumAnchorCount = 1 << 24

    /// Returns the anchors for `options`, in MediaPipe's order: per merged layer, rows (y), then columns (x),
    /// then the layer's anchors (aspect ratios, then the interpolated one).
    ///
    /// Arithmetic follows the C++: the layer scale is `min + (max − min)·i/(n − 1)` evaluated in double and
    /// rounded to float (`(min + max)/2` in float when there is one stride); everything else is float.
    ///
    /// - Throws: `DetectionError.invalidAnchorOptions` for non-positive sizes or strides, fewer strides than
    ///   layers (MediaPipe loops forever there), mismatched feature-map lists, or too many anchors.
    public static func generate(_ options: SSDAnchorOptions) throws(DetectionError) -> [SSDAnchor] {
        try validate(options)
        let strides = options.strides
        let strideCount = strides.count
        let hasFeatureMaps = !options.featureMapHeight.isEmpty
        var anchors: [SSDAnchor] = []
        var layerID = 0
        while layerID < options.numLayers {
            var aspectRatios: [Float] = []
            var scales: [Float] = []
            var lastSameStrideLayer = layerID
            while lastSameStrideLayer < strideCount && strides[lastSameStrideLayer] == strides[layerID] {
                let scale = layerScale(options, index: lastSameStrideLayer, count: strideCount)
                if lastSameStrideLayer == 0 && options.reduceBoxesInLowestLayer {
                    aspectRatios += [1.0, 2.0, 0.5]
                    scales += [0.1, scale, scale]
                } else {
                    for ratio in options.aspectRatios {
                        aspectRatios.append(ratio)
                        scales.append(scale)
                    }
                    if options.interpolatedScaleAspectRatio > 0 {
                        let next: Float =
                            lastSameStrideLayer == strideCount - 1
                            ? 1.0 : layerScale(options, index: lastSameStrideLayer + 1, count: strideCount)
                        scales.append((scale * next).squareRoot())
                        aspectRatios.append(options.interpolatedScaleAspectRatio)
                    }
                }
                lastSameStrideLayer += 1
            }
            var anchorHeights: [Float] = []
            var anchorWidths: [Float] = []
            for (ratio, scale) in zip(aspectRatios, scales) {
                let ratioSqrt = ratio.squareRoot()
                anchorHeights.append(scale / ratioSqrt)
                anchorWidths.append(scale * ratioSqrt)
            }
            let (gridWidth, gridHeight) = gridSize(options, layer: layerID, hasFeatureMaps: hasFeatureMaps)
            let perCell = anchorHeights.count
            let cells = gridWidth.multipliedReportingOverflow(by: gridHeight)
            let added = cells.partialValue.multipliedReportingOverflow(by: perCell)
            guard !cells.overflow, !added.overflow, added.partialValue <= maximumAnchorCount - anchors.count else {
                throw .invalidAnchorOptions("more than \(maximumAnchorCount) anchors")
            }
            anchors.reserveCapacity(anchors.count + added.partialValue)
            for y in 0..<gridHeight {
                for x in 0..<gridWidth {
                    for anchorID in 0..<perCell {
                        let xCenter = (Float(x) + options.anchorOffsetX) / Float(gridWidth)
                        let yCenter = (Float(y) + options.anchorOffsetY) / Float(gridHeight)
                        if options.fixedAnchorSize {
                            anchors.append(SSDAnchor(xCenter: xCenter, yCenter: yCenter, width: 1, height: 1))
                        } else {
                            anchors.append(
                                SSDAnchor(
                                    xCenter: xCenter, yCenter: yCenter,
                                    width: anchorWidths[anchorID], height: anchorHeights[anchorID]
                                ))
                        }
                    }
                }
            }
            layerID = lastSameStrideLayer
        }
        return anchors
    }

    /// MediaPipe's `CalculateScale`: the product and division run in double (the `* 1.0` promotes them).
    static func layerScale(_ options: SSDAnchorOptions, index: Int, count: Int) -> Float {
        if count == 1 {
            return (options.minScale + options.maxScale) * 0.5
        }
        let span = Double(options.maxScale - options.minScale)
        return Float(Double(options.minScale) + span * Double(index) / Double(Float(count) - 1))
    }

    private static func gridSize(
        _ options: SSDAnchorOptions, layer: Int, hasFeatureMaps: Bool
    ) -> (width: Int, height: Int) {
        if hasFeatureMaps {
            return (options.featureMapWidth[layer], options.featureMapHeight[layer])
        }
        let stride = Float(options.strides[layer])
        let height = (Float(options.inputSizeHeight) / stride).rounded(.up)
        let width = (Float(options.inputSizeWidth) / stride).rounded(.up)
        return (Int(width), Int(height))
    }

    private static func validate(_ options: SSDAnchorOptions) throws(DetectionError) {
        guard options.numLayers > 0 else {
            throw .invalidAnchorOptions("numLayers must be positive, got \(options.numLayers)")
        }
        guard options.strides.count >= options.numLayers else {
            throw .invalidAnchorOptions(
                "need a stride per layer: \(options.strides.count) strides for \(options.numLayers) layers")
        }
        guard options.strides.allSatisfy({ $0 > 0 }) else {
            throw .invalidAnchorOptions("strides must be positive, got \(options.strides)")
        }
        let hasFeatureMaps = !options.featureMapHeight.isEmpty || !options.featureMapWidth.isEmpty
        if hasFeatureMaps {
            guard options.featureMapHeight.count == options.numLayers,
                options.featureMapWidth.count == options.numLayers
            else {
                throw .invalidAnchorOptions(
                    "feature maps: \(options.featureMapWidth.count) widths and \(options.featureMapHeight.count) "
                        + "heights for \(options.numLayers) layers")
            }
            let sizes = options.featureMapWidth + options.featureMapHeight
            guard sizes.allSatisfy({ $0 >= 0 && $0 <= maximumAnchorCount }) else {
                throw .invalidAnchorOptions("feature map sizes out of range: \(sizes)")
            }
        } else {
            guard options.inputSizeWidth > 0, options.inputSizeHeight > 0,
                options.inputSizeWidth <= maximumAnchorCount, options.inputSizeHeight <= maximumAnchorCount
            else {
                throw .invalidAnchorOptions(
                    "input size must be positive, got \(options.inputSizeWidth)×\(options.inputSizeHeight)")
            }
        }
        let perCellBound = options.aspectRatios.count + 3
        guard perCellBound <= 1 << 16 else {
            throw .invalidAnchorOptions("too many aspect ratios: \(options.aspectRatios.count)")
        }
    }
}
