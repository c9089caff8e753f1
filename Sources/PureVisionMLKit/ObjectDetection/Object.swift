import Foundation
import PureVision

/// One label of a detected object: ML Kit's `ObjectLabel` (`MLKObjectLabel`), which has `ImageLabel`'s `text`,
/// `confidence` and `index`: here the same class.
public typealias ObjectLabel = ImageLabel

/// One detected object: ML Kit's `Object` (`MLKObject`).
public final class Object: Sendable {
    /// The object's bounding rectangle in pixels of the upright image.
    public let frame: CGRect
    /// The labels, best first (`shouldEnableClassification`); empty otherwise.
    public let labels: [ObjectLabel]
    /// The object's tracking ID in `.stream` mode, kept while the object stays in view from frame to frame; nil in
    /// `.singleImage` mode.
    public let trackingID: NSNumber?

    /// The object of a native detection.
    init(_ detection: Detection, labelled: Bool, trackingID: Int?) {
        let box = detection.boundingBox
        frame = CGRect(
            x: CGFloat(box.originX), y: CGFloat(box.originY), width: CGFloat(box.width), height: CGFloat(box.height))
        labels = labelled ? detection.categories.map(ObjectLabel.init) : []
        self.trackingID = trackingID.map { NSNumber(value: $0) }
    }
}
