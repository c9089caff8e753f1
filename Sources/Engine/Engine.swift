import TFLite
