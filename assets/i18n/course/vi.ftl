# Khóa học luật chơi (/learn): nội dung các bài và tin nhắn của khóa học.
# Tên điểm như trong /move: cột a–i tính từ bên trái của Đỏ, hàng 0–9 tính từ phía Đỏ.

## Khóa học

learn-welcome = Chào mừng đến với khóa học cờ úp! Mười bài ngắn, mỗi bài là một nhiệm vụ trên bàn cờ. Trả lời bằng /move (ví dụ /move b0c2). /learn list xem danh sách bài, /learn <số> chuyển đến một bài, /learn restart học lại từ đầu, /learn stop tạm dừng.
command-learn = Khóa học luật chơi: các bài ngắn, trả lời bằng /move
learn-resume = Chào mừng trở lại: đây là chỗ bạn đã dừng.
learn-heading = Bài { $number }/{ $total }: { $title } (bước { $step }/{ $steps })
learn-correct = ✅ { $explanation }
learn-wrong = Chưa đúng. { $hint }
learn-next-lesson = Xong bài { $number }!
learn-finished = 🎓 Bạn đã học xong cả khóa! Thách đấu ai đó bằng /challenge, hoặc chơi với máy bằng /play bot. /learn restart để học lại.
learn-finished-already = Bạn đã học xong khóa học rồi. /learn restart để học lại, /learn <số> để mở một bài.
learn-list = Các bài học (✓ đã xong, ▶ đang học):
    { $lessons }
    Mở một bài bằng /learn <số>.
learn-stopped = Đã tạm dừng khóa học. /learn sẽ tiếp tục từ chỗ bạn dừng.
learn-not-started = Bạn chưa bắt đầu khóa học: gửi /learn để bắt đầu.
refuse-learn-usage = Dùng /learn, /learn <số> (1 đến { $total }), /learn list, /learn restart hoặc /learn stop.
refuse-learn-no-such-lesson = Không có bài { $number }: hãy chọn từ 1 đến { $total }.

## Bài 1: quân úp

course-covered-title = Quân úp đi theo quân của vị trí nó đứng
course-covered-horse-task = Trong cờ úp, mọi quân trừ Tướng đều bắt đầu úp mặt và bị xáo trộn. Quân úp đi như quân có vị trí xuất phát là điểm nó đang đứng. Quân trên b0 đứng ở vị trí của Mã: hãy nhảy nó như Mã đến c2.
course-covered-horse-hint = Quân trên b0 đứng ở vị trí Mã nên nó nhảy như Mã: một bước thẳng, một bước chéo. Gõ /move b0c2.
course-covered-horse-done = Nó nhảy như Mã và được lật lên: thật ra là một quân Xe! Vị trí quyết định cách nó đi; việc chia quân quyết định nó là quân gì.
course-covered-cannon-task = Quân úp trên h2 đứng ở vị trí của Pháo nên nó ăn quân như Pháo: nhảy qua đúng một quân (ngòi). Hãy ăn Xe đen trên h9.
course-covered-cannon-hint = Pháo ăn quân bằng cách nhảy qua một quân (ở đây là Tốt trên h6) để ăn quân phía sau. Gõ /move h2h9.
course-covered-cannon-done = Nó ăn quân như Pháo và hóa ra là một quân Sĩ. Quân úp đi và ăn theo quân của vị trí nó đứng, kèm cả giới hạn của quân đó.

## Bài 2: lật quân

course-reveal-title = Lật quân
course-reveal-push-task = Quân úp được lật lên ở nước đi đầu tiên của nó, và ai cũng thấy nó là quân gì. Đẩy quân úp trên c3 (vị trí của Tốt) lên một bước.
course-reveal-push-hint = Quân trên c3 đứng ở vị trí Tốt nên nó tiến một bước. Gõ /move c3c4.
course-reveal-push-done = Bất ngờ: đó là một quân Xe! Từ giờ nó đi theo đúng thân phận thật của nó. Đen đáp lại bằng cách đưa Tướng lên e8.
course-reveal-use-task = Quân Xe mới của bạn đi thẳng bao xa cũng được. Hãy dùng nó ăn Mã đen trên c9.
course-reveal-use-hint = Xe trên c4 có thể chạy thẳng lên theo cột c. Gõ /move c4c9.
course-reveal-use-done = Hay lắm. Quân đã lật đi theo thân phận thật, dù nó được lật ở đâu.

## Bài 3: Sĩ và Tượng được tự do

course-free-title = Sĩ và Tượng đã lật được tự do
course-free-elephant-task = Khi đã lật, Tượng được qua sông. Nó vẫn đi chéo hai điểm, và một quân đứng ở điểm giữa (mắt tượng) vẫn chặn nó. Dùng Tượng trên e4 ăn Mã đen trên g6.
course-free-elephant-hint = Tượng trên e4 đi chéo hai điểm; mắt tượng f5 trống và sông không còn chặn nó. Gõ /move e4g6.
course-free-elephant-done = Qua sông rồi! Trong cờ tướng thường, Tượng không bao giờ rời nửa bàn của mình; trong cờ úp, Tượng đã lật thì được.
course-free-advisor-task = Sĩ đã lật được ra khỏi cung: nó đi chéo một điểm, ở đâu cũng được. Dùng Sĩ trên d2 ăn Tốt đen trên c3.
course-free-advisor-hint = Sĩ trên d2 đi chéo một điểm, kể cả ra ngoài cung. Gõ /move d2c3.
course-free-advisor-done = Ra khỏi cung rồi! Chỉ có Tướng phải ở trong cung. Quân úp đứng ở vị trí Sĩ vẫn phải ở trong cung cho đến khi được lật.

## Bài 4: lộ mặt Tướng

course-flying-title = Hai Tướng không được đối mặt
course-flying-escape-task = Hai Tướng không bao giờ được đối mặt nhau trên một cột mà không có quân nào ở giữa. Xe đen trên e5 đang chiếu Tướng của bạn: hãy thoát chiếu.
course-flying-escape-hint = Tướng của bạn có thể sang d1 hoặc f1 — nhưng ở d1 nó sẽ đối mặt với Tướng đen trên d9. Gõ /move e1f1.
course-flying-escape-done = An toàn. Nước đi khiến hai Tướng đối mặt là không hợp lệ, nên Tướng cũng khống chế cả cột của nó.

## Bài 5: ăn quân úp

course-capture-title = Ăn quân úp
course-capture-covered-task = Bạn được ăn quân còn úp. Dùng Xe ăn quân úp trên b9.
course-capture-covered-hint = Xe trên b4 chạy thẳng lên theo cột b. Gõ /move b4b9.
course-capture-covered-done = Ăn rồi! Chỉ bạn biết đó là quân gì — một quân Pháo: trong ván đấu bạn được báo bằng tin nhắn riêng, và ảnh bàn cờ của bạn hiện nó trong khay quân bị ăn. Đối thủ và cả nhóm chỉ thấy một quân úp.

## Bài 6: chiếu và chiếu hết

course-mate-title = Chiếu và chiếu hết
course-mate-check-task = Chiếu là tấn công Tướng. Hãy chiếu bằng quân Xe.
course-mate-check-hint = Đặt Xe lên hàng hoặc cột của Tướng đen, không có quân nào ở giữa. Thử /move b1b9.
course-mate-check-done = Chiếu! Bên bị chiếu phải thoát: tránh đi, chặn lại, hoặc ăn quân đang chiếu. Ở đây Tướng đen tránh được, nên chưa phải chiếu hết.
course-mate-mate-task = Giờ Xe thứ hai của bạn trên a8 khống chế hàng 8. Hãy chiếu sao cho Tướng không còn đường đi: chiếu hết.
course-mate-mate-hint = Tướng không thể lên hàng 8 (Xe trên a8 giữ nó) cũng không thể đi ngang trên hàng 9. Gõ /move b1b9.
course-mate-mate-done = Chiếu hết: bạn thắng! Bên không còn nước đi hợp lệ nào cũng thua, dù có bị chiếu hay không.

## Bài 7: lặp lại và hòa vì không ăn quân

course-repetition-title = Lặp lại thế cờ và hòa vì không ăn quân
course-repetition-check-task = Đen đã chiếu bạn ở mọi nước, qua lại liên tục. Đưa Tướng của bạn lên e2: khi đó cùng một thế cờ xuất hiện lần thứ ba.
course-repetition-check-hint = Đi e0 cũng thoát chiếu, nhưng bài này nói về lặp lại: hãy lên e2. Gõ /move e1e2.
course-repetition-check-done = Lần thứ ba: luật xét cả vòng lặp, và bên chiếu ở mọi nước (chiếu mãi) bị xử thua — bạn thắng. Đuổi mãi một quân cũng thua; nếu không bên nào phạm luật thì hòa.
course-repetition-quiet-task = Đã 119 nửa nước không có quân nào bị ăn, gần 60 nước mỗi bên. Khi mỗi bên đi 60 nước (120 nửa nước) mà không ăn quân thì ván cờ hòa, và lật quân không làm tính lại từ đầu. Hãy giữ ván cờ tiếp tục: ăn Tốt trên b4.
course-repetition-quiet-hint = Giờ bất kỳ nước nào không ăn quân đều là nửa nước thứ 120 không ăn quân, và ván cờ hòa. Ăn Tốt đi: /move b0b4.
course-repetition-quiet-done = Ăn quân thì bắt đầu đếm lại, nên ván cờ tiếp tục. Đó là bài cờ úp cuối cùng: tiếp theo là Banqi.

## Bài 8: Banqi, lật quân

course-banqi-flip-title = Banqi: lật quân và màu quân
course-banqi-flip-task = Banqi (cờ lật) chơi trên nửa bàn cờ, cả 32 quân úp mặt trong các ô. Chưa ai có màu: hãy lật một quân bất kỳ, ví dụ /move d2.
course-banqi-flip-hint = Lật một quân úp bằng cách gõ tên ô của nó, ví dụ /move d2.
course-banqi-flip-done = Màu bạn lật ra là màu của bạn, đối thủ cầm màu còn lại. Từ giờ mỗi lượt chọn một: lật một quân úp bất kỳ, đi một quân của mình một ô, hoặc ăn quân.

## Bài 9: Banqi, quân nào ăn quân nào

course-banqi-ranks-title = Banqi: ai ăn được ai
course-banqi-ranks-horse-task = Quân ăn theo cấp bậc, sang ô bên cạnh: Tướng, Sĩ, Tượng, Xe, Mã, Pháo, Tốt. Mã của bạn trên c2 có thể ăn một quân bên cạnh: quân nào?
course-banqi-ranks-horse-hint = Mã ăn được quân cùng cấp hoặc thấp hơn: Pháo trên d2, không phải Xe trên c3. Gõ /move c2d2.
course-banqi-ranks-horse-done = Đúng: Mã cao hơn Pháo. Đen đáp lại bằng cách lật một quân.
course-banqi-ranks-soldier-task = Quân thấp nhất có một bất ngờ. Hãy ăn Tướng đen.
course-banqi-ranks-soldier-hint = Chỉ có Tốt ăn được Tướng (và Tướng không ăn được Tốt). Gõ /move f2f3.
course-banqi-ranks-soldier-done = Tốt ăn Tướng! Banqi không có chiếu: bạn thắng khi đối thủ không còn nước đi, thường là vì hết quân.

## Bài 10: Pháo trong Banqi

course-banqi-cannon-title = Banqi: Pháo nhảy ăn
course-banqi-cannon-task = Pháo đi một ô như các quân khác, nhưng chỉ ăn bằng cách nhảy qua đúng một quân (ngửa hay úp đều được) theo hàng hoặc cột, xa bao nhiêu cũng được. Hãy ăn Xe đen trên a4.
course-banqi-cannon-hint = Pháo không ăn được Mã ngay cạnh. Hãy nhảy qua quân trên a2: /move a1a4.
course-banqi-cannon-done = Khi nhảy ăn, Pháo không cần xét cấp bậc: ăn được cả Tướng. Quân úp thì không bao giờ bị ăn.
