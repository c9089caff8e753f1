import TensorCore
