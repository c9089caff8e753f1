import ImageIO
