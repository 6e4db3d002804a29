// With JavaScript the same form is sent by XMLHttpRequest, so that the upload's progress shows;
// without it the browser posts the form itself. The server answers both the same way.
(function () {
  var form = document.getElementById('upload-form');
  if (!form || !window.FormData || !window.XMLHttpRequest) return;
  var box = document.getElementById('upload-progress');
  var bar = document.getElementById('upload-progress-bar');
  var status = document.getElementById('upload-status');
  form.addEventListener('submit', function (event) {
    var file = form.elements.file;
    if (!file || !file.files || file.files.length === 0) return;
    event.preventDefault();
    var request = new XMLHttpRequest();
    request.open('POST', form.action);
    request.upload.addEventListener('progress', function (progress) {
      if (!progress.lengthComputable) return;
      var percent = Math.floor((progress.loaded / progress.total) * 100);
      box.hidden = false;
      bar.value = percent;
      status.textContent = 'Uploading: ' + percent + '%';
    });
    request.addEventListener('load', function () {
      // A kept upload is answered with a redirect to this page again, which is shown afresh; a
      // refusal with its own page, shown as it came.
      if (request.status === 200 && request.responseURL) {
        window.location.assign(request.responseURL);
        return;
      }
      document.open();
      document.write(request.responseText);
      document.close();
    });
    request.addEventListener('error', function () {
      status.textContent = 'The upload did not arrive. Check your connection and try again.';
    });
    box.hidden = false;
    status.textContent = 'Uploading: 0%';
    request.send(new FormData(form));
  });
})();
